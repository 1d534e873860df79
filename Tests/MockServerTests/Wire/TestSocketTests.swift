import Foundation
@testable import MockServer
@testable import MockServerWire
import Testing
import ServiceReplayTestSupport

/// The raw test clients write through ``TestSocket``: a write to a connection the server reset must fail
/// with an error, never raise SIGPIPE, which would end the whole test process.
@Suite struct TestSocketTests {
    @Test func writeToAResetConnection_failsWithoutKillingTheProcess() async throws {
        try await withServer(respond: { _ in .reset }) { _, url in
            let client = try RawHTTPClient(url)
            try client.send("GET / HTTP/1.1\r\n\r\n")
            #expect(await client.readToEnd().ending == .reset)
            // The first write after the reset fails (ECONNRESET or EPIPE); a SIGPIPE would end the process here.
            let failure = #expect(throws: RawHTTPClient.Failure.self) {
                for _ in 0..<3 { try client.send("GET / HTTP/1.1\r\n\r\n") }
            }
            #expect(failure?.description == "send failed: errno \(EPIPE)" || failure?.description == "send failed: errno \(ECONNRESET)")
        }
    }
}

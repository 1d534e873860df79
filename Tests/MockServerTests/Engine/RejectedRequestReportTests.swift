import Foundation
import ServiceReplayShared
@testable import MockServer
@testable import MockServerWire
import Testing

/// Requests the server answers itself, before any cassette, reach the configuration's observer: the journal
/// never holds them, so a log would show nothing of a client's 400 or 408.
@Suite struct RejectedRequestReportTests {
    @Test(
        arguments: [
            ("NOT HTTP AT ALL\r\n\r\n", 400, nil),
            ("POST /upload?sig=s3cr3t HTTP/1.1\r\nContent-Length: 51\r\n\r\n", 413, nil),
            (
                "POST /upload?sig=s3cr3t HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n33\r\n\(String(repeating: "a", count: 51))\r\n0\r\n\r\n",
                413, "POST /upload"
            ),
            ("PUT /file HTTP/1.1\r\nExpect: 200-ok\r\nContent-Length: 1\r\n\r\nx", 417, "PUT /file"),
            ("POST /slow HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc", 408, "POST /slow"),
        ] as [(String, Int, String?)])
    func rejectedRequest_isReported_withStatusReasonAndPath_neverItsQuery(request: String, status: Int, path: String?) async throws {
        // Given a replay server with small limits and an observer of rejections
        let reported = Lock<[RejectedRequest]>([])
        var configuration = CassetteServer.Configuration(faults: .none)
        configuration.server = HTTPServer.Configuration(maxBodyBytes: 50, requestTimeout: .milliseconds(300))
        configuration.onRejection = { rejected in reported.withLock { $0.append(rejected) } }
        let server = try CassetteServer(cassettes: [], configuration: configuration)
        let base = try await server.start()
        // When a client sends what cannot be served
        let client = try RawHTTPClient(base)
        defer { client.close() }
        try client.send(request)
        let response = try await client.readResponse(timeout: .seconds(20))
        await server.stop()
        // Then the observer heard of it once, as the client was answered, and the journal holds nothing
        #expect(response.status == status)
        let rejected = reported.withLock { $0 }
        #expect(rejected == [RejectedRequest(status: status, reason: String(response.bodyText.dropLast()), request: path)])
        #expect(rejected.first?.description == "\(path ?? "(request not read)") → \(status) rejected: \(response.bodyText.dropLast())")
        #expect(server.journal.entries.isEmpty)
    }
}

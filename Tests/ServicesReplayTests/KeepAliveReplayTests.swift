import Foundation
@testable import MockServer
import ServiceKit
import ExampleServices
import Testing

/// What happens when a kept-alive connection dies under the second call of a client. URLSession on Linux
/// (FoundationNetworking over libcurl) treats a reused connection that closes before answering as stale
/// and sends the request again on a new one, transparently; it cannot do that for a request with a body,
/// and the call then waits out its whole timeout. These tests pin that behaviour, so the day it changes
/// (or ServiceKit works around it) they say so.
@Suite(.timeLimit(.minutes(1))) struct KeepAliveReplayTests {
    #if os(Linux)
    @Test(arguments: ["reset,when=nth:2", "empty,when=nth:2"])
    func get_whoseReusedConnectionDies_isSentAgainByURLSession(fault: String) async throws {
        // Given a client without retries whose second request meets a dying kept-alive connection
        try await withReplay("feed/feeds", faults: .specs(fault)) { replay in
            let first = try await replay.client.send(FeedService(page: 1, pageSize: 3))

            // When it fetches again
            let second = try await replay.client.send(FeedService(page: 1, pageSize: 3))

            // Then URLSession itself sent the GET again, on a new connection, and it succeeded
            #expect(second == first)
            #expect(replay.server.journal.entries.map(\.outcome.kind) == [.matched, .faultInjected, .matched])
            #expect(replay.clock.sleeps == [])
        }
    }

    @Test(arguments: ["reset,when=nth:2", "empty,when=nth:2"])
    func post_whoseReusedConnectionDies_waitsOutItsTimeout_andIsNotSentAgain(fault: String) async throws {
        // Given a client whose second log-in meets a dying kept-alive connection. FoundationNetworking
        // cannot rewind an in-memory body for libcurl's stale-connection resend, so the transfer waits for
        // body bytes that never come (swift-corelibs-foundation NativeProtocol.seekInputStream). The server never
        // answers the resent request, whose body never comes: after its request timeout (10 s, real) it leaves it
        // to the client's timeout on the replay's shared clock.
        let options = ClientOptions(timeout: ReplayTimeout.stall, retryPolicy: RetryPolicy())
        try await withReplay("login/login", faults: .specs(fault), client: options) { replay in
            _ = try await replay.client.send(LoginService(username: "CommandShift", password: "hunter2"))

            // When it logs in again
            let error = await #expect(throws: WebServiceError.self) {
                try await replay.client.send(LoginService(username: "CommandShift", password: "hunter2"))
            }

            // Then the call times out (not a lost connection), and the POST reached the server once
            #expect(error?.reason == .network(.timedOut))
            #expect(replay.server.journal.entries.map(\.outcome.kind) == [.matched, .faultInjected])
        }
    }
    #endif
}

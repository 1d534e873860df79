import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceReplayShared
@testable import MockServer
import Testing

/// The URLSession road to the upstream (any upstream but a numeric or `localhost` `http://` one) bounds each
/// silence of the upstream, not the whole exchange, as MockServer's own connections do.
@Suite struct UpstreamTaskRouterTests {
    /// Runs one GET of `path` on `upstream` through a router's session, allowing `silence`.
    private func run(_ upstream: URL, _ path: String, silence: Duration) async -> UpstreamCompletion {
        let router = UpstreamTaskRouter()
        let configuration = URLSessionConfiguration.ephemeral
        // Longer than the router's bound, so that only the router can time the exchange out.
        configuration.timeoutIntervalForRequest = 60
        let session = URLSession(configuration: configuration, delegate: router.sessionDelegate, delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        return await router.run(session.dataTask(with: upstream.appendingPathComponent(path)), silence: silence)
    }

    @Test func silentUpstream_endsAsTimedOut_afterTheSilence() async throws {
        try await withServer(respond: { _ in .stall }) { _, upstream in
            let completion = await run(upstream, "silent", silence: .milliseconds(500))
            #expect(completion.error?.code == URLError.Code.timedOut.rawValue)
            #expect(completion.error?.message == "The upstream sent nothing in time.")
            #expect(completion.head == nil)
        }
    }

    @Test func slowBody_completes_aslongAsItsBytesKeepComing() async throws {
        // 1,200 bytes at 400 a second: about 3 s in all, arriving steadily, never silent for 2 s
        let body = Data(repeating: UInt8(ascii: "x"), count: 1200)
        let reply = HTTPReply.throttled(bytesPerSecond: 400, .response(status: 200, headers: ["Content-Type": "text/plain"], body: body))
        try await withServer(respond: { _ in reply }) { _, upstream in
            let completion = await run(upstream, "slow", silence: .seconds(2))
            #expect(completion.error == nil, "\(String(describing: completion.error))")
            #expect(completion.head?.status == 200)
            #expect(completion.body == body)
        }
    }
}

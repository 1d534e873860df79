import Foundation
import ServiceReplayShared
@testable import MockServer
import Testing
import ServiceReplayTestSupport

/// The response head, captured and replayed, keeps the upstream's order of fields, `Content-Length` included.
@Suite struct CaptureHeaderOrderTests {
    struct OrderedUpstream: HTTPHandler {
        static let body = Data(#"{"ok":true}"#.utf8)
        func reply(to request: HTTPRequest, context: HTTPRequestContext) -> HTTPReply {
            .response(
                HTTPResponse(
                    status: 200,
                    headers: HTTPHeaders(pairs: [
                        ("X-First", "1"), ("Content-Length", String(Self.body.count)), ("Content-Type", "application/json"), ("X-Last", "2"),
                    ]), body: Self.body))
        }
    }

    /// The names of the head's fields in `response` (a whole raw answer), without those the server adds.
    private func fieldNames(_ response: String) -> [String] {
        let head = response.components(separatedBy: "\r\n\r\n")[0]
        return head.components(separatedBy: "\r\n").dropFirst().compactMap { $0.split(separator: ":").first.map(String.init) }
            .filter { !["Date", "Server", "Connection"].contains($0) }
    }

    private func get(_ base: URL) async throws -> String {
        let connection = try PlainConnection(port: try #require(base.port))
        defer { connection.disconnect() }
        try connection.write("GET /ordered HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        return try await offThePool { try connection.readToEnd() }
    }

    @Test func contentLength_keepsTheUpstreamsPlace_throughCaptureAndReplay() async throws {
        // GIVEN an upstream whose head puts Content-Length second of four fields
        let workspace = try Workspace()
        defer { workspace.remove() }
        let upstream = HTTPServer(configuration: .init(sendsDateHeader: false), handler: OrderedUpstream())
        let upstreamURL = try await upstream.start()
        let direct = try await get(upstreamURL)
        #expect(fieldNames(direct) == ["X-First", "Content-Length", "Content-Type", "X-Last"])
        // WHEN it is captured, then replayed
        let capture = try RunningRecorder(
            ["capture", "--upstream", upstreamURL.absoluteString, "--out", "Recordings/ordered.json"],
            in: workspace.folder)
        let captured = try await get(try await capture.address(after: "Listening on"))
        #expect(try await capture.stop(with: SIGTERM).status == 0)
        await upstream.stop()
        let replay = try RunningRecorder(["replay", "Recordings/ordered.json"], in: workspace.folder)
        let replayed = try await get(try await replay.address(after: "Replaying"))
        #expect(try await replay.stop().status == 0)
        // THEN the client sees the upstream's order both times, and the same body
        #expect(fieldNames(captured) == fieldNames(direct))
        #expect(fieldNames(replayed) == fieldNames(direct))
        #expect(replayed.hasSuffix("\r\n\r\n" + String(decoding: OrderedUpstream.body, as: UTF8.self)))
    }
}

import Foundation
import ServiceReplayShared
@testable import MockServer

/// An upstream on loopback with two versions of its answers, switchable while it runs: version 1 is what a
/// cassette is recorded against, version 2 the same API after it changed, one route per kind of change.
final class VersionedUpstream: HTTPHandler {
    /// The secret `GET /me` requires, as `Authorization: Bearer <token>`.
    static let token = "live-token-5521"
    private let version = Lock(1)

    /// Makes every later answer come from `version` (1 or 2).
    func switchTo(_ version: Int) {
        self.version.withLock { $0 = version }
    }

    /// The requests that record one interaction per route: every GET route, then a POST.
    static let requests: [(method: String, target: String, headers: [(String, String)])] = [
        ("GET", "/removed", []), ("GET", "/added", []), ("GET", "/typed", []), ("GET", "/nested", []),
        ("GET", "/status", []), ("GET", "/content", []), ("GET", "/events", []),
        ("GET", "/me", [("Authorization", "Bearer \(token)")]), ("POST", "/items", [("Content-Type", "application/json")]),
    ]

    func reply(to request: HTTPRequest, context: HTTPRequestContext) -> HTTPReply {
        let v2 = version.withLock { $0 } == 2
        func json(_ text: String, status: Int = 200) -> HTTPReply {
            .response(status: status, headers: ["Content-Type": "application/json"], body: Data(text.utf8))
        }
        switch (request.method, request.path) {
        case ("GET", "/removed"): return json(v2 ? #"{"id":2}"# : #"{"id":1,"email":"ann@example.com"}"#)
        case ("GET", "/added"): return json(v2 ? #"{"id":1,"bio":"hi"}"# : #"{"id":1}"#)
        case ("GET", "/typed"): return json(v2 ? #"{"id":"1"}"# : #"{"id":1}"#)
        case ("GET", "/nested"):
            return json(v2 ? #"{"repos":[{"owner":{"id":"1"}},{"owner":{"id":"2"}}]}"# : #"{"repos":[{"owner":{"id":1}},{"owner":{"id":2}}]}"#)
        case ("GET", "/status"): return v2 ? json(#"{"message":"Not Found"}"#, status: 404) : json(#"{"ok":true}"#)
        case ("GET", "/content"):
            return v2 ? .response(status: 200, headers: ["Content-Type": "text/html"], body: Data("<html></html>".utf8)) : json(#"{"a":1}"#)
        case ("GET", "/events"):
            let delta = v2 ? #"{"text":["hi"]}"# : #"{"text":"hi"}"#
            return .response(
                status: 200, headers: ["Content-Type": "text/event-stream"],
                body: Data("event: delta\ndata: \(delta)\n\nevent: done\ndata: {}\n\n".utf8))
        case ("GET", "/me"):
            guard request.headers["Authorization"] == "Bearer \(Self.token)" else { return json(#"{"message":"Bad credentials"}"#, status: 401) }
            return json(#"{"login":"ann"}"#)
        case ("POST", "/items"): return json(#"{"id":7}"#, status: 201)
        default: return json(#"{"message":"no route"}"#, status: 404)
        }
    }
}

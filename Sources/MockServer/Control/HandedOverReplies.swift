import Foundation
import ServiceReplayShared

/// Replies decided in-process for routed requests that only the socket can deliver (a reset, a stall, a
/// throttled body): each waits here under a one-time token until the loopback request carrying that token in
/// ``HostRouter/replyHeader`` takes it, so that the request is matched, faulted and journaled once, in
/// the process, and the socket only carries out what was decided.
final class HandedOverReplies: Sendable {
    private let replies = Lock<[String: HTTPReply]>([:])

    /// Keeps `reply` and returns its token: 128 random bits, which no web page can guess.
    func put(_ reply: HTTPReply) -> String {
        let token = UUID().uuidString
        replies.withLock { $0[token] = reply }
        return token
    }

    /// The reply kept under `token`, removed; `nil` when there is none (taken, discarded, or never kept).
    func take(_ token: String) -> HTTPReply? {
        replies.withLock { $0.removeValue(forKey: token) }
    }

    /// Forgets every reply: the server stopped, and no loopback request will come for them.
    func discardAll() {
        let dropped = replies.withLock { replies in
            defer { replies = [:] }
            return replies
        }
        _ = dropped
    }
}

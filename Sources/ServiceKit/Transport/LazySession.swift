import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceReplayShared

/// A transport's one `URLSession`, made from its configuration when first asked for, so that a client that never
/// sends costs no session, and invalidated with `finishTasksAndInvalidate()` when it goes away: a session never
/// invalidated keeps its delegate and (on Linux) its threads for ever.
final class LazySession: Sendable {
    /// The session once asked for; until then, the configuration to make it from.
    private enum State {
        case pending(URLSessionConfiguration)
        case made(URLSession)
    }

    private let state: Lock<State>
    private let delegate: any URLSessionDelegate & Sendable
    private let prepare: @Sendable (URLSessionConfiguration) -> Void

    /// A session of a copy of `configuration` (copied now, as URLSession would copy it, so that later changes to
    /// the caller's object do not count), with `delegate`; `prepare` adjusts the copy just before the session is made.
    init(
        configuration: URLSessionConfiguration, delegate: any URLSessionDelegate & Sendable,
        prepare: @escaping @Sendable (URLSessionConfiguration) -> Void = { _ in }
    ) {
        state = Lock(.pending(configuration.copy() as! URLSessionConfiguration))
        self.delegate = delegate
        self.prepare = prepare
    }

    deinit {
        if case .made(let session) = state.withLock({ $0 }) { session.finishTasksAndInvalidate() }
    }

    /// The session, made on first use.
    var session: URLSession {
        state.withLock { state in
            switch state {
            case .made(let session):
                return session
            case .pending(let configuration):
                prepare(configuration)
                let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
                state = .made(session)
                return session
            }
        }
    }
}

import Foundation
import ServiceReplayLocking

/// The state of one deferred answer, shared by the connection (which may cancel it) and the
/// ``HTTPResponder`` the handler holds (which answers it). The connection does not keep the responder
/// itself, so a responder the handler drops is noticed and answered with 500.
final class PendingAnswer: Sendable {
    private enum State {
        case pending, answered, cancelled
    }

    private let delivery: DeferredDelivery
    private let state = Lock(State.pending)
    private let cancelHandlers = Lock<[@Sendable () -> Void]>([])

    init(delivery: DeferredDelivery) {
        self.delivery = delivery
    }

    var isCancelled: Bool {
        state.withLock { $0 } == .cancelled
    }

    /// Delivers `reply` if nothing was delivered or cancelled before.
    func send(_ reply: HTTPReply) -> Bool {
        guard transition(to: .answered) else { return false }
        cancelHandlers.withLock { $0.removeAll() }
        delivery.deliver(reply)
        return true
    }

    /// The responder is gone: answer 500 unless an answer was sent.
    func abandon() {
        _ = send(.response(status: 500, headers: ["Content-Type": "text/plain; charset=utf-8"],
                           body: Data("The request handler released its responder without answering.\n".utf8)))
    }

    func onCancel(_ handler: @escaping @Sendable () -> Void) {
        let runNow = cancelHandlers.withLock { handlers in
            switch state.withLock({ $0 }) {
            case .pending:
                handlers.append(handler)
                return false
            case .cancelled:
                return true
            case .answered:
                return false
            }
        }
        if runNow { handler() }
    }

    /// Called by the connection when it closes while waiting for this answer.
    func cancel() {
        guard transition(to: .cancelled) else { return }
        let handlers = cancelHandlers.withLock { handlers in
            defer { handlers.removeAll() }
            return handlers
        }
        for handler in handlers { handler() }
    }

    private func transition(to target: State) -> Bool {
        state.withLock { state in
            guard state == .pending else { return false }
            state = target
            return true
        }
    }
}

import Foundation
import ServiceReplayShared

/// The state of one deferred answer, shared by the connection (which may cancel it) and the
/// ``HTTPResponder`` the handler holds (which answers it). The connection does not keep the responder
/// itself, so a responder the handler drops is noticed and answered with 500.
final class PendingAnswer: Sendable {
    private enum State {
        case pending, answered, cancelled
    }

    /// The state and the handlers to run on cancellation, under one lock.
    private struct Shared {
        var state = State.pending
        var cancelHandlers: [@Sendable () -> Void] = []
    }

    private let delivery: DeferredDelivery
    private let shared = Lock(Shared())

    init(delivery: DeferredDelivery) {
        self.delivery = delivery
    }

    var isCancelled: Bool {
        shared.withLock { $0.state } == .cancelled
    }

    /// Delivers `reply` if nothing was delivered or cancelled before.
    func send(_ reply: HTTPReply) -> Bool {
        guard transition(to: .answered) != nil else { return false }
        delivery.deliver(reply)
        return true
    }

    /// The responder is gone: answer 500 unless an answer was sent.
    func abandon() {
        _ = send(
            .response(
                status: 500, headers: ["Content-Type": "text/plain; charset=utf-8"],
                body: Data("The request handler released its responder without answering.\n".utf8)))
    }

    func onCancel(_ handler: @escaping @Sendable () -> Void) {
        let runNow = shared.withLock { shared in
            switch shared.state {
            case .pending:
                shared.cancelHandlers.append(handler)
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
        guard let handlers = transition(to: .cancelled) else { return }
        for handler in handlers { handler() }
    }

    /// Leaves `pending` for `target` and hands back the cancel handlers, which are dropped from here; `nil`
    /// when the answer was no longer pending.
    private func transition(to target: State) -> [@Sendable () -> Void]? {
        shared.withLock { shared in
            guard shared.state == .pending else { return nil }
            shared.state = target
            defer { shared.cancelHandlers.removeAll() }
            return shared.cancelHandlers
        }
    }
}

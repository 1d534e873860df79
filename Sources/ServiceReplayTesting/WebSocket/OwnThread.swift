import Foundation

/// Blocking work on a thread of its own, so that it never holds a thread of Swift's cooperative pool.
enum OwnThread {
    /// Starts `work` on a new thread named `name`.
    static func start(_ name: String, _ work: @escaping @Sendable () -> Void) {
        let thread = Thread(block: work)
        thread.name = name
        thread.start()
    }

    /// The result of `work`, run on a new thread named `name`.
    static func run<Value: Sendable>(_ name: String, _ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            start(name) { continuation.resume(with: Result { try work() }) }
        }
    }
}

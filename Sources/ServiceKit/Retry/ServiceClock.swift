import Foundation

/// The time source of a ``WebServiceClient``: what "now" is (for `Retry-After` dates and rate-limit reset
/// times) and how waiting between retries happens. In tests, inject the `VirtualClock` of the `ServiceKitTesting` product so that nothing sleeps.
public protocol ServiceClock: Sendable {
    /// The current date.
    var now: Date { get }

    /// Suspends for `seconds` (non-negative). Throws `CancellationError` if the calling task is cancelled
    /// before or during the wait.
    func sleep(for seconds: TimeInterval) async throws
}

/// Wall-clock time and real sleeping: the default.
public struct SystemClock: ServiceClock {
    /// The system clock.
    public init() {}

    /// `Date()`.
    public var now: Date { Date() }

    /// `Task.sleep`, which throws `CancellationError` when the task is cancelled.
    public func sleep(for seconds: TimeInterval) async throws {
        try await Task.sleep(for: .seconds(max(0, seconds)))
    }
}

extension ServiceClock where Self == SystemClock {
    /// The system clock.
    public static var system: SystemClock { SystemClock() }
}

/// A virtual clock is ServiceKit's clock of retries and pagination pauses, and, while a server on it runs, of
/// the transfer timeout too (see ``WebServiceClient/Configuration/clock``).
extension VirtualClock: ServiceClock {}

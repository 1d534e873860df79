import Foundation

/// When and how long a ``WebServiceClient`` waits to try a failed call again. Opt-in: a client retries
/// only when its configuration has a policy.
///
/// A failed attempt is retried only when all hold:
/// - the method is idempotent (``HTTPMethod/isIdempotent``): a POST is never repeated;
/// - the failure is network-level (except `cancelled` and `secureConnectionFailed`, which repeating does not
///   fix), or the response status was 503 or 429;
/// - fewer than ``maxAttempts`` attempts were made;
/// - the server did not ask for a wait longer than ``maxRetryAfter``.
///
/// The wait before attempt *n + 1* is the server's `Retry-After` when it sent one, otherwise
/// `min(maxDelay, initialDelay × multiplier^(n−1))` reduced by up to ``jitter`` of itself at random, so
/// that many clients do not retry in step.
public struct RetryPolicy: Sendable {
    /// Total attempts including the first (at least 1). Default 3.
    public var maxAttempts: Int
    /// The backoff before the second attempt, in seconds. Default 0.5.
    public var initialDelay: TimeInterval
    /// How much each backoff grows over the previous one. Default 2.
    public var multiplier: Double
    /// The longest backoff, in seconds. Default 30.
    public var maxDelay: TimeInterval
    /// The largest share (0...1) of a backoff removed at random. Default 0.2; 0 makes waits exact.
    public var jitter: Double
    /// The longest `Retry-After` honoured, in seconds; a server asking for more ends the call with its
    /// error instead of a long wait. Default 60.
    public var maxRetryAfter: TimeInterval
    /// Returns a number in 0..<1 for jitter. Default: the system random generator; inject a constant in tests.
    public var random: @Sendable () -> Double

    /// A policy; every argument has the documented default.
    public init(
        maxAttempts: Int = 3, initialDelay: TimeInterval = 0.5, multiplier: Double = 2,
        maxDelay: TimeInterval = 30, jitter: Double = 0.2, maxRetryAfter: TimeInterval = 60,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.initialDelay = max(0, initialDelay)
        self.multiplier = max(1, multiplier)
        self.maxDelay = max(0, maxDelay)
        self.jitter = min(1, max(0, jitter))
        self.maxRetryAfter = max(0, maxRetryAfter)
        self.random = random
    }

    /// Whether `error` is worth another attempt for `method`, before counting attempts.
    public func isRetryable(_ error: WebServiceError, method: HTTPMethod) -> Bool {
        guard method.isIdempotent else { return false }
        switch error.reason {
        case .network(.cancelled), .network(.secureConnectionFailed): return false
        case .network: return true
        case .service: return error.statusCode == 503 || error.statusCode == 429
        }
    }

    /// The wait in seconds before the attempt after `attempt` (counted from 1), or `nil` to give up and
    /// report `error`. `retryAfter` is the server's `Retry-After` for that attempt, if any.
    public func delay(
        after attempt: Int, failedWith error: WebServiceError, method: HTTPMethod,
        retryAfter: TimeInterval?
    ) -> TimeInterval? {
        guard attempt < maxAttempts, isRetryable(error, method: method) else { return nil }
        if let retryAfter {
            return retryAfter <= maxRetryAfter ? retryAfter : nil
        }
        let backoff = min(maxDelay, initialDelay * pow(multiplier, Double(attempt - 1)))
        return backoff * (1 - jitter * min(max(random(), 0), 1))
    }
}

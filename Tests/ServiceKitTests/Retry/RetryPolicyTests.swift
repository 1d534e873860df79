import Foundation
import ServiceKit
import Testing

@Suite struct RetryPolicyTests {
    let exact = RetryPolicy(maxAttempts: 5, initialDelay: 0.5, multiplier: 2, maxDelay: 3, jitter: 0)
    let timeout = WebServiceError.network(.timedOut)

    @Test func backoff_growsExponentiallyUpToMaxDelay() {
        let delays = (1...4).map { exact.delay(after: $0, failedWith: timeout, method: .get, retryAfter: nil) }
        #expect(delays == [0.5, 1, 2, 3])
    }

    @Test func backoff_stopsAtMaxAttempts() {
        #expect(exact.delay(after: 5, failedWith: timeout, method: .get, retryAfter: nil) == nil)
        #expect(RetryPolicy(maxAttempts: 1).delay(after: 1, failedWith: timeout, method: .get, retryAfter: nil) == nil)
    }

    @Test(arguments: [(0.0, 1.0), (0.5, 0.9), (0.999, 0.8002)])
    func jitter_removesUpToItsShareAtRandom(random: Double, factor: Double) {
        // Given a 20 % jitter and a fixed random draw
        let policy = RetryPolicy(initialDelay: 1, jitter: 0.2, random: { random })
        // Then the first backoff is reduced by that share of the jitter
        let delay = policy.delay(after: 1, failedWith: timeout, method: .get, retryAfter: nil)
        #expect(abs((delay ?? -1) - factor) < 1e-9)
    }

    @Test func retryAfter_replacesBackoff_withinTheLimit() {
        let limited = WebServiceError.service(.rateLimited(retryAfter: 2), statusCode: 429)
        #expect(exact.delay(after: 1, failedWith: limited, method: .get, retryAfter: 2) == 2)
        #expect(exact.delay(after: 1, failedWith: limited, method: .get, retryAfter: 61) == nil)
        #expect(RetryPolicy(maxRetryAfter: 3600).delay(after: 1, failedWith: limited, method: .get, retryAfter: 61) == 61)
    }

    @Test(arguments: [
        (WebServiceError.network(.timedOut), HTTPMethod.get, true),
        (.network(.connectionLost), .put, true),
        (.network(.badResponse), .delete, true),
        (.network(.notConnected), .head, true),
        (.network(.cancelled), .get, false),
        (.network(.secureConnectionFailed), .get, false),
        (.network(.timedOut), .post, false),
        (.network(.timedOut), .patch, false),
        (.service(.httpStatus(503, message: nil), statusCode: 503), .get, true),
        (.service(.rateLimited(retryAfter: nil), statusCode: 429), .get, true),
        (.service(.httpStatus(503, message: nil), statusCode: 503), .post, false),
        (.service(.httpStatus(500, message: nil), statusCode: 500), .get, false),
        (.service(.rateLimited(retryAfter: 5), statusCode: 403), .get, false),
        (.service(.undecodableBody, statusCode: 200), .get, false),
    ])
    func isRetryable_onlyIdempotentNetworkFailures503And429(error: WebServiceError, method: HTTPMethod, expected: Bool) {
        #expect(RetryPolicy().isRetryable(error, method: method) == expected)
    }

    @Test func init_clampsNonsense() {
        let policy = RetryPolicy(maxAttempts: 0, initialDelay: -1, multiplier: 0.5, jitter: 7)
        #expect(policy.maxAttempts == 1)
        #expect(policy.initialDelay == 0)
        #expect(policy.multiplier == 1)
        #expect(policy.jitter == 1)
    }
}

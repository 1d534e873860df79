import Foundation
import ServiceReplayShared

/// Sends recorded requests again to the live upstream, one at a time, through the recording's own upstream
/// client (so a request goes out as a recording would have forwarded it: header lines in order, `Host`
/// naming the upstream, hop-by-hop fields dropped), and waits out a `Retry-After`.
package final class DriftProbe: Sendable {
    /// The upstream requests go to.
    package let upstream: Upstream
    /// The longest single `Retry-After` waited out; a longer one is not waited for, and its answer is compared.
    package let longestWait: Duration
    /// How many times one request is sent again after a 429 or 503 with `Retry-After`.
    package static let retries = 3
    private let client: UpstreamForwarder

    /// A probe of `upstream` whose every wait for an answer is bounded by `timeout`.
    package init(upstream: Upstream, timeout: Duration = .seconds(30), longestWait: Duration = .seconds(60)) {
        self.upstream = upstream
        self.longestWait = longestWait
        client = UpstreamForwarder(upstream: upstream, timeout: timeout)
    }

    /// Sends `request` (method, target, headers and body as recorded, `Host` set to the upstream's) and
    /// returns the answer, or the failure below HTTP (refused, reset, timed out). A 429 or 503 whose `Retry-After` (seconds or an HTTP-date) asks for at most
    /// ``longestWait`` is waited out and the request sent again, at most ``retries`` times; `onWait` is told
    /// each wait first.
    package func send(_ request: HTTPRequest, onWait: @Sendable (Duration) -> Void = { _ in }) async -> Result<HTTPResponse, TransportFailure> {
        guard let url = upstream.url(for: request.target) else {
            return .failure(TransportFailure(kind: .refused, message: "'\(upstream)\(request.target)' is not a URL."))
        }
        let headers = ProxyHeaders.recorded(request.headers, upstream: upstream)
        var attempt = 0
        while true {
            switch await client.send(request, to: url, headers: headers) {
            case .failure(let failure), .unreachable(let failure):
                return .failure(failure)
            case .response(let response):
                guard attempt < Self.retries, [429, 503].contains(response.status),
                    let wait = Self.retryAfter(response.headers["Retry-After"]), wait <= longestWait
                else {
                    return .success(response)
                }
                attempt += 1
                onWait(wait)
                try? await Task.sleep(for: wait)
            }
        }
    }

    /// The wait a `Retry-After` asks for, in seconds or until an HTTP-date (from `now`), rounded up to the
    /// millisecond; `nil` when there is none or it is neither form.
    static func retryAfter(_ value: String?, now: Date = Date()) -> Duration? {
        guard let value, let seconds = RetryAfter.seconds(from: value, now: now) else { return nil }
        return .milliseconds(Int(min(seconds * 1000, Double(Int32.max)).rounded(.up)))
    }
}

extension TransportFailure {
    /// The failure's message, or its kind when the upstream gave none, as a drift report names it.
    package var driftReason: String {
        message ?? "the upstream did not answer (\(kind.rawValue))"
    }
}

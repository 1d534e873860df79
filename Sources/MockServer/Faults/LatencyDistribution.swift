import Foundation

/// How long a latency fault waits before the normal answer (built through ``Fault/latency(_:)-(Duration)`` and
/// its siblings).
enum LatencyDistribution: Sendable, Hashable, CustomStringConvertible {
    /// Always the same delay.
    case fixed(Duration)
    /// A delay drawn uniformly from the range, from the plan's seeded generator.
    case uniform(ClosedRange<Duration>)
    /// A delay whose logarithm is normal: half of the delays are under `median`; `sigma` (> 0) widens the
    /// tail. Drawn from the plan's seeded generator and capped at 60 s so that nothing waits for ever.
    case logNormal(median: Duration, sigma: Double)

    /// The longest delay a log-normal draw may give.
    static let logNormalCap = Duration.seconds(60)

    /// The CLI spelling: `200ms`, `100..300ms` or `lognormal:120ms:0.5`.
    package var description: String {
        switch self {
        case .fixed(let delay): DurationSpelling.format(delay)
        case .uniform(let range): "\(DurationSpelling.milliseconds(range.lowerBound))..\(DurationSpelling.milliseconds(range.upperBound))ms"
        case .logNormal(let median, let sigma): "lognormal:\(DurationSpelling.format(median)):\(sigma)"
        }
    }

    /// The delay for one request, given a uniform draw `unit` in [0, 1) and a second one `unit2` in
    /// [0, 1) (used by the log-normal case).
    func delay(unit: Double, unit2: Double) -> Duration {
        switch self {
        case .fixed(let delay):
            return delay
        case .uniform(let range):
            let low = DurationSpelling.seconds(range.lowerBound)
            let high = DurationSpelling.seconds(range.upperBound)
            return .microseconds(Int64(((low + (high - low) * unit) * 1_000_000).rounded()))
        case .logNormal(let median, let sigma):
            // Box–Muller turns two uniform draws into one standard normal draw.
            let normal = (-2 * Foundation.log(max(unit, .leastNonzeroMagnitude))).squareRoot() * cos(2 * .pi * unit2)
            let seconds = DurationSpelling.seconds(median) * exp(sigma * normal)
            let capped = min(seconds, DurationSpelling.seconds(LatencyDistribution.logNormalCap))
            return .microseconds(Int64((capped * 1_000_000).rounded()))
        }
    }
}

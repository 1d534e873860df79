import Foundation

/// Reads and writes the duration spellings of fault specs: `250ms`, `1.5s`, `2s`.
enum DurationSpelling {
    /// The longest duration a spelling may give: an hour, as plan files allow.
    static let maximumSeconds: Double = 3600

    /// Parses `N ms` or `N s` (no space; `N` may have a fraction); `nil` for anything else, a negative value or
    /// more than an hour.
    static func parse(_ text: String) -> Duration? {
        let (number, unit): (Substring, Double)
        if text.hasSuffix("ms") {
            (number, unit) = (text.dropLast(2), 0.001)
        } else if text.hasSuffix("s") {
            (number, unit) = (text.dropLast(1), 1)
        } else {
            return nil
        }
        guard let value = Double(number), value.isFinite, value >= 0, value * unit <= maximumSeconds else { return nil }
        return .microseconds(Int64((value * unit * 1_000_000).rounded()))
    }

    /// Parses a bare number of milliseconds, as in the `100..300ms` range spelling; at most an hour.
    static func parseMilliseconds(_ text: Substring) -> Duration? {
        guard let value = Double(text), value.isFinite, value >= 0, value <= maximumSeconds * 1000 else { return nil }
        return .microseconds(Int64((value * 1000).rounded()))
    }

    /// Milliseconds, the one unit `description` writes, so that spellings stay comparable (`1500ms`).
    static func format(_ duration: Duration) -> String {
        "\(milliseconds(duration))ms"
    }

    /// The duration in milliseconds, without a trailing `.0` when whole.
    static func milliseconds(_ duration: Duration) -> String {
        let ms = seconds(duration) * 1000
        return ms == ms.rounded() ? String(Int64(ms)) : String(ms)
    }

    /// The duration in seconds as a `Double`.
    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

import Foundation

/// Reads a `Retry-After` value (RFC 9110 §10.2.3): the one reader of ServiceKit's client and MockServer's
/// drift check. Delay-seconds are read leniently, as a number (`1.5` is 1.5 s, a negative one 0); an HTTP-date
/// gives the time from `now` to it, 0 when it is past.
package enum RetryAfter {
    /// The delay in seconds, never negative; `nil` when the value is neither form.
    package static func seconds(from value: String, now: Date) -> TimeInterval? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(trimmed), seconds.isFinite {
            return max(0, seconds)
        }
        return HTTPDate.date(from: trimmed).map { max(0, $0.timeIntervalSince(now)) }
    }
}

/// HTTP-date (RFC 9110 §5.6.7): IMF-fixdate, and the obsolete RFC 850 and asctime forms a recipient must
/// still accept.
package enum HTTPDate {
    private static let formats = [
        PatternDateFormatter(pattern: "EEE, dd MMM yyyy HH:mm:ss 'GMT'"),  // Sun, 06 Nov 1994 08:49:37 GMT
        PatternDateFormatter(pattern: "EEEE, dd-MMM-yy HH:mm:ss 'GMT'"),  // Sunday, 06-Nov-94 08:49:37 GMT
        PatternDateFormatter(pattern: "EEE MMM d HH:mm:ss yyyy"),  // Sun Nov  6 08:49:37 1994
    ]

    /// The date `text` names in one of the three forms, or `nil`.
    package static func date(from text: String) -> Date? {
        // asctime pads single-digit days with a space; collapse runs of spaces so one pattern reads both.
        let normalized = text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        return formats.lazy.compactMap { $0.date(from: normalized) }.first
    }
}

/// One `DateFormatter` with a fixed pattern, in `timeZone` (UTC by default) with the `en_US_POSIX` locale so
/// that user settings never change the result, shared behind a lock: creating formatters is costly, and their
/// thread-safety has differed across platforms.
package final class PatternDateFormatter: Sendable {
    private let formatter: Lock<DateFormatter>

    package init(pattern: String, timeZone: TimeZone = .gmt) {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = pattern
        self.formatter = Lock(formatter)
    }

    /// The date `text` names, or `nil` when it does not follow the pattern.
    package func date(from text: String) -> Date? {
        formatter.withLock { $0.date(from: text) }
    }

    /// `date` in the pattern.
    package func string(from date: Date) -> String {
        formatter.withLock { $0.string(from: date) }
    }
}

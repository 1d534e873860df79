import Foundation

/// Reads a `Retry-After` value (RFC 9110 §10.2.3): delay-seconds or an HTTP-date.
enum RetryAfter {
    /// The delay in seconds, never negative; `nil` when the value is neither form.
    static func seconds(from value: String, now: Date) -> TimeInterval? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(trimmed), seconds.isFinite {
            return max(0, seconds)
        }
        return HTTPDate.date(from: trimmed).map { max(0, $0.timeIntervalSince(now)) }
    }
}

/// HTTP-date (RFC 9110 §5.6.7): IMF-fixdate, and the obsolete RFC 850 and asctime forms a recipient must
/// still accept.
enum HTTPDate {
    private static let formats: [DateFormat] = [
        .pattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'"),  // Sun, 06 Nov 1994 08:49:37 GMT
        .pattern("EEEE, dd-MMM-yy HH:mm:ss 'GMT'"),  // Sunday, 06-Nov-94 08:49:37 GMT
        .pattern("EEE MMM d HH:mm:ss yyyy"),  // Sun Nov  6 08:49:37 1994
    ]

    static func date(from text: String) -> Date? {
        // asctime pads single-digit days with a space; collapse runs of spaces so one pattern reads both.
        let normalized = text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        for format in formats {
            if let date = format.date(from: .string(normalized)) {
                return date
            }
        }
        return nil
    }
}

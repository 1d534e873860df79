import Foundation
import ServiceReplayShared

/// How an API writes dates, used both ways: to read a date from a response and to write a date parameter
/// into a request. An open set: the built-ins are static members, and ``init(parse:format:)`` makes any other.
public struct DateFormat: Sendable {
    private let parse: @Sendable (JSONValue) -> Date?
    private let format: @Sendable (Date) -> JSONValue

    /// A format that reads dates with `parse` (returning `nil` for values it cannot read) and writes them
    /// with `format` (a string or a number).
    public init(parse: @escaping @Sendable (JSONValue) -> Date?, format: @escaping @Sendable (Date) -> JSONValue) {
        self.parse = parse
        self.format = format
    }

    /// The date `value` stands for, or `nil`.
    public func date(from value: JSONValue) -> Date? { parse(value) }

    /// How `date` is written in this format.
    public func value(for date: Date) -> JSONValue { format(date) }

    /// Seconds since 1970-01-01T00:00:00Z, read from a number or numeric string; written as an integer
    /// when whole (`1699990000`), otherwise as a double.
    public static let secondsSince1970 = DateFormat(
        parse: { value in JSON(value).double.map { Date(timeIntervalSince1970: $0) } },
        format: { date in Self.number(date.timeIntervalSince1970) }
    )

    /// Milliseconds since 1970-01-01T00:00:00Z, read and written like ``secondsSince1970``.
    public static let millisecondsSince1970 = DateFormat(
        parse: { value in JSON(value).double.map { Date(timeIntervalSince1970: $0 / 1000) } },
        format: { date in Self.number(date.timeIntervalSince1970 * 1000) }
    )

    /// ISO 8601 / RFC 3339 (`2007-10-20T05:24:19Z`), read with or without fractional seconds and with any
    /// UTC offset; written in UTC without fractional seconds.
    public static let iso8601 = DateFormat(
        parse: { value in
            guard case .string(let text) = value else { return nil }
            return (try? Date(text, strategy: .iso8601))
                ?? (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
        },
        format: { date in .string(date.formatted(.iso8601)) }
    )

    /// A fixed `DateFormatter` pattern such as `yyyy-MM-dd HH:mm:ss`, in `timeZone` (UTC by default) with the
    /// `en_US_POSIX` locale so that user settings never change the result.
    public static func pattern(_ pattern: String, timeZone: TimeZone = .gmt) -> DateFormat {
        let formatter = PatternDateFormatter(pattern: pattern, timeZone: timeZone)
        return DateFormat(
            parse: { value in
                guard case .string(let text) = value else { return nil }
                return formatter.date(from: text)
            },
            format: { date in .string(formatter.string(from: date)) }
        )
    }

    private static func number(_ seconds: Double) -> JSONValue {
        if let whole = Int(exactly: seconds) {
            return .integer(whole)
        }
        return .double(seconds)
    }
}

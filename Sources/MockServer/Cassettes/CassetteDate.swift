import Foundation

/// ISO 8601 timestamps in UTC as cassettes spell them (`2026-11-21T10:00:00Z`, optionally with fractional
/// seconds). Hand-rolled because a formatter per timestamp costs more than the rest of loading a cassette.
enum CassetteDate {
    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`; `nil` for anything else.
    static func parse(_ text: String) -> Date? {
        var copy = text
        return copy.withUTF8 { bytes -> Date? in
            guard bytes.count >= 20 else { return nil }
            func number(_ start: Int, _ count: Int) -> Int? {
                var value = 0
                for index in start..<start + count {
                    let byte = bytes[index]
                    guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                    value = value * 10 + Int(byte - UInt8(ascii: "0"))
                }
                return value
            }
            func expect(_ index: Int, _ character: Character) -> Bool { bytes[index] == character.asciiValue! }
            guard let year = number(0, 4), expect(4, "-"), let month = number(5, 2), expect(7, "-"),
                let day = number(8, 2), bytes[10] | 0x20 == UInt8(ascii: "t"), let hour = number(11, 2),
                expect(13, ":"), let minute = number(14, 2), expect(16, ":"), let second = number(17, 2),
                (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
                hour < 24, minute < 60, second < 61
            else { return nil }
            var index = 19
            var fraction = 0.0
            if bytes[index] == UInt8(ascii: ".") {
                index += 1
                var scale = 0.1
                let start = index
                while index < bytes.count, let digit = number(index, 1) {
                    fraction += Double(digit) * scale
                    scale /= 10
                    index += 1
                }
                guard index > start else { return nil }
            }
            guard index < bytes.count else { return nil }
            var offsetSeconds = 0
            if bytes[index] | 0x20 == UInt8(ascii: "z") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                guard index + 6 == bytes.count, let hours = number(index + 1, 2), expect(index + 3, ":"),
                    let minutes = number(index + 4, 2)
                else { return nil }
                offsetSeconds = (hours * 3600 + minutes * 60) * (bytes[index] == UInt8(ascii: "+") ? 1 : -1)
                index += 6
            }
            guard index == bytes.count else { return nil }
            let days = daysFromCivil(year: year, month: month, day: day)
            let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
            return Date(timeIntervalSince1970: Double(seconds) + fraction)
        }
    }

    /// Formats in UTC with a `Z`; milliseconds appear only when the time has them.
    static func format(_ date: Date) -> String {
        let totalMilliseconds = Int((date.timeIntervalSince1970 * 1000).rounded())
        let milliseconds = ((totalMilliseconds % 1000) + 1000) % 1000
        let seconds = (totalMilliseconds - milliseconds) / 1000
        let secondsOfDay = ((seconds % 86_400) + 86_400) % 86_400
        let (year, month, day) = civilFromDays((seconds - secondsOfDay) / 86_400)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        var text = "\(year < 1000 ? String(repeating: "0", count: 4 - String(year).count) : "")\(year)-\(two(month))-\(two(day))"
        text += "T\(two(secondsOfDay / 3600)):\(two(secondsOfDay / 60 % 60)):\(two(secondsOfDay % 60))"
        if milliseconds != 0 {
            text += "." + String(String(milliseconds + 1000).dropFirst())
        }
        return text + "Z"
    }

    private static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 for a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

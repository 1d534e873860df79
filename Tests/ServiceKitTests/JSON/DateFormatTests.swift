import Foundation
import ServiceKit
import Testing

@Suite struct DateFormatTests {
    static let signup = Date(timeIntervalSince1970: 1_384_680_600)  // 2013-11-17 09:30:00 UTC

    @Test func secondsSince1970_readsNumbersAndStrings_writesIntegers() {
        #expect(DateFormat.secondsSince1970.date(from: 1_384_680_600) == Self.signup)
        #expect(DateFormat.secondsSince1970.date(from: "1384680600") == Self.signup)
        #expect(DateFormat.secondsSince1970.date(from: "soon") == nil)
        #expect(DateFormat.secondsSince1970.value(for: Self.signup) == .integer(1_384_680_600))
        #expect(DateFormat.secondsSince1970.value(for: Date(timeIntervalSince1970: 1.5)) == .double(1.5))
    }

    @Test func millisecondsSince1970_scalesByAThousand() {
        #expect(DateFormat.millisecondsSince1970.date(from: 1_384_680_600_000) == Self.signup)
        #expect(DateFormat.millisecondsSince1970.value(for: Self.signup) == .integer(1_384_680_600_000))
    }

    @Test(arguments: ["2013-11-17T09:30:00Z", "2013-11-17T09:30:00.000Z", "2013-11-17T10:30:00+01:00"])
    func iso8601_readsUTCOffsetsAndFractions(text: String) {
        #expect(DateFormat.iso8601.date(from: .string(text)) == Self.signup)
    }

    @Test func iso8601_writesUTCWithoutFraction() {
        #expect(DateFormat.iso8601.value(for: Self.signup) == "2013-11-17T09:30:00Z")
        #expect(DateFormat.iso8601.date(from: 5) == nil)
    }

    @Test func pattern_readsAndWritesInUTCRegardlessOfLocale() {
        // Given the log-in API's sign-up date format
        let format = DateFormat.pattern("yyyy-MM-dd HH:mm:ss")
        // Then it reads and writes the same text in UTC
        #expect(format.date(from: "2013-11-17 09:30:00") == Self.signup)
        #expect(format.value(for: Self.signup) == "2013-11-17 09:30:00")
        #expect(format.date(from: "17/11/2013") == nil)
    }

    @Test func pattern_honoursTimeZone() {
        let format = DateFormat.pattern("yyyy-MM-dd HH:mm", timeZone: TimeZone(secondsFromGMT: 3600)!)
        #expect(format.date(from: "2013-11-17 10:30") == Self.signup)
    }
}

import Foundation
import ServiceKit
import Testing

@Suite struct RetryAfterTests {
    static let now = Date(timeIntervalSince1970: 784_111_774)  // Sun, 06 Nov 1994 08:49:34 GMT

    @Test(arguments: [
        ("2", 2.0 as TimeInterval?), (" 120 ", 120), ("0", 0), ("-5", 0), ("1.5", 1.5),
        ("Sun, 06 Nov 1994 08:49:37 GMT", 3),  // IMF-fixdate
        ("Sunday, 06-Nov-94 08:49:44 GMT", 10),  // RFC 850
        ("Sun Nov  6 08:50:34 1994", 60),  // asctime
        ("Sun, 06 Nov 1994 08:49:00 GMT", 0),  // already past
        ("soon", nil), ("", nil),
    ])
    func retryAfter_readsSecondsAndHTTPDates(header: String, expected: TimeInterval?) {
        let reply = RawResponse(statusCode: 503, headers: ["Retry-After": header], body: Data(), receivedAt: Self.now)
        #expect(reply.retryAfter == expected)
    }

    @Test func retryAfter_absent_isNil() {
        #expect(RawResponse(statusCode: 503, headers: [:], body: Data()).retryAfter == nil)
    }
}

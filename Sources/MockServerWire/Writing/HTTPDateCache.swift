/// The `Date: ...\r\n` header line (IMF-fixdate, RFC 9110 §5.6.7), formatted at most once per second.
struct HTTPDateCache {
    private var second = -1
    private(set) var line: [UInt8] = []

    /// Refreshes ``line`` when the wall-clock second has changed.
    mutating func refresh(now: Int = Sys.unixSeconds()) {
        guard now != second else { return }
        second = now
        line = Self.format(now)
    }

    static func format(_ seconds: Int) -> [UInt8] {
        let time = Sys.utc(seconds)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let text =
            "Date: \(days[Int(time.tm_wday)]), \(two(time.tm_mday)) \(months[Int(time.tm_mon)]) \(time.tm_year + 1900) "
            + "\(two(time.tm_hour)):\(two(time.tm_min)):\(two(time.tm_sec)) GMT\r\n"
        return Array(text.utf8)
    }
}

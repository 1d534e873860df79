/// One `name=value` pair of a query string or a form-encoded body, percent-decoded.
struct FormField: Sendable, Hashable, Comparable {
    var name: String
    var value: String

    /// Orders by name, then value, in UTF-8 byte order (stable across platforms and locales).
    static func < (lhs: FormField, rhs: FormField) -> Bool {
        if lhs.name != rhs.name { return lhs.name.utf8.lexicographicallyPrecedes(rhs.name.utf8) }
        return lhs.value.utf8.lexicographicallyPrecedes(rhs.value.utf8)
    }

    /// Splits `a=1&b=&c` into fields in order: `+` is a space, escapes are decoded, empty pieces are skipped
    /// and a name without `=` has the empty value. Works on UTF-8 bytes: this runs for every request.
    static func parse(_ text: some StringProtocol) -> [FormField] {
        var copy = Substring(text)
        return copy.withUTF8 { bytes in
            var fields: [FormField] = []
            fields.reserveCapacity(bytes.count { $0 == UInt8(ascii: "&") } + 1)
            var start = 0
            while start <= bytes.count {
                var end = start
                var equals = -1
                while end < bytes.count, bytes[end] != UInt8(ascii: "&") {
                    if equals < 0, bytes[end] == UInt8(ascii: "=") { equals = end }
                    end += 1
                }
                if end > start {
                    if equals >= 0 {
                        fields.append(
                            FormField(
                                name: PercentDecoding.decode(UnsafeBufferPointer(rebasing: bytes[start..<equals]), plusAsSpace: true),
                                value: PercentDecoding.decode(UnsafeBufferPointer(rebasing: bytes[(equals + 1)..<end]), plusAsSpace: true)
                            ))
                    } else {
                        fields.append(
                            FormField(
                                name: PercentDecoding.decode(UnsafeBufferPointer(rebasing: bytes[start..<end]), plusAsSpace: true), value: ""
                            ))
                    }
                }
                start = end + 1
            }
            return fields
        }
    }
}

/// Percent-decoding for matching, so that `%41`, `%61` and `A`, `a` in the same place compare as their
/// characters do. Works on UTF-8 bytes, since it runs for every request.
enum PercentDecoding {
    /// Decodes every valid `%XX` escape (and `+` as a space when `plusAsSpace`, the form-encoding rule used in
    /// query strings). Invalid escapes stay literal; when the decoded bytes are not UTF-8, the text is kept as
    /// it was, so that two different undecodable texts never compare equal.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool) -> String {
        guard bytes.contains(where: { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) }) else {
            return String(decoding: bytes, as: UTF8.self)
        }
        return transform(bytes, plusAsSpace: plusAsSpace, keepEncoded: { _ in false }) ?? String(decoding: bytes, as: UTF8.self)
    }

    /// Decodes a string; see ``decode(_:plusAsSpace:)-(UnsafeBufferPointer<UInt8>,_)``.
    static func decode(_ text: String, plusAsSpace: Bool) -> String {
        var copy = text
        return copy.withUTF8 { decode($0, plusAsSpace: plusAsSpace) }
    }

    /// A path with every escape decoded except those for `/`, `?`, `#` and `%` (which would change the path's
    /// structure if decoded); those stay encoded with upper-case hex, so `%2f` and `%2F` agree.
    static func normalizePath(_ path: Substring) -> String {
        var slice = path
        guard slice.withUTF8({ $0.contains(UInt8(ascii: "%")) }) else { return String(path) }
        var copy = String(path)
        return copy.withUTF8 { bytes in
            transform(
                bytes, plusAsSpace: false,
                keepEncoded: { byte in
                    byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") || byte == UInt8(ascii: "%")
                }) ?? String(decoding: bytes, as: UTF8.self)
        }
    }

    private static func transform(_ bytes: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool, keepEncoded: (UInt8) -> Bool) -> String? {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) {
                let decoded = high << 4 | low
                if keepEncoded(decoded) {
                    output.append(UInt8(ascii: "%"))
                    output.append(hexDigit(high))
                    output.append(hexDigit(low))
                } else {
                    output.append(decoded)
                }
                index += 3
            } else if plusAsSpace && byte == UInt8(ascii: "+") {
                output.append(UInt8(ascii: " "))
                index += 1
            } else {
                output.append(byte)
                index += 1
            }
        }
        return String(validUTF8: output)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }
}

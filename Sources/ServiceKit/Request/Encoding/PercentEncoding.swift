/// RFC 3986 percent-encoding over UTF-8 bytes. Every byte outside the allowed set is written `%XX` with
/// upper-case hex, so the output is the same on every platform.
enum PercentEncoding {
    /// RFC 3986 §2.3 unreserved characters: `A-Z a-z 0-9 - . _ ~`.
    static let unreserved: Set<UInt8> = Set(Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8))

    /// What may stand unescaped in a path: unreserved, sub-delims, `:`, `@` and the `/` separator.
    static let path: Set<UInt8> = unreserved.union("!$&'()*+,;=:@/".utf8)

    /// `text` with every byte outside `allowed` percent-encoded.
    static func encode(_ text: String, allowing allowed: Set<UInt8>) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if allowed.contains(byte) {
                output.unicodeScalars.append(UnicodeScalar(byte))
            } else {
                output += "%" + hexDigits[Int(byte >> 4)] + hexDigits[Int(byte & 0x0F)]
            }
        }
        return output
    }

    /// A query or form component: everything but unreserved characters is encoded.
    static func component(_ text: String) -> String {
        encode(text, allowing: unreserved)
    }

    /// An `application/x-www-form-urlencoded` component: like ``component(_:)`` but a space is `+`.
    static func formComponent(_ text: String) -> String {
        text.split(separator: " ", omittingEmptySubsequences: false)
            .map { component(String($0)) }
            .joined(separator: "+")
    }

    private static let hexDigits = Array("0123456789ABCDEF").map(String.init)
}

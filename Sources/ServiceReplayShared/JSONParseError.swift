/// Why and where some bytes are not JSON (RFC 8259, UTF-8). ServiceKit keeps it as the `underlyingError` of
/// a `.service(.undecodableBody)` `WebServiceError`; MockServer reports it, with the file's name, as a
/// cassette's or HAR archive's syntax error.
public struct JSONParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, as a sentence fragment (`expected ',' or '}' after an object member`).
    public let problem: String
    /// The offset of the offending byte from the start of the body, counted from zero.
    public let byteOffset: Int
    /// The line of the offending byte, counted from one; lines end at `\n`.
    public let line: Int
    /// The column of the offending byte, counted from one in characters (UTF-8 sequences), not bytes.
    public let column: Int
    /// Whether the bytes ended inside the document, so that more bytes could have made it whole: a file cut
    /// short, rather than one written wrong.
    package let endsEarly: Bool

    /// The error `problem` at `byteOffset` in `bytes`, its line and column counted there. Counting only on
    /// failure keeps the parsers' hot loops free of bookkeeping.
    package init(_ problem: String, at byteOffset: Int, in bytes: UnsafeBufferPointer<UInt8>, endsEarly: Bool) {
        var line = 1
        var column = 1
        for byte in bytes[..<min(byteOffset, bytes.count)] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                // Continuation bytes belong to the character their lead byte started.
                column += 1
            }
        }
        self.problem = problem
        self.byteOffset = byteOffset
        self.line = line
        self.column = column
        self.endsEarly = endsEarly
    }

    /// `Invalid JSON at line 3, column 14 (byte 52): expected ',' or '}' after an object member.`
    public var description: String {
        "Invalid JSON at line \(line), column \(column) (byte \(byteOffset)): \(problem)."
    }
}

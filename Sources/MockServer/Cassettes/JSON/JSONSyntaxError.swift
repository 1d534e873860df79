/// Why some bytes are not valid JSON, and where: a 1-based line and column (columns count characters).
package struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The 1-based line of the offending byte.
    let line: Int
    /// The 1-based column of the offending character on that line.
    let column: Int
    /// The byte offset of the offending byte from the start of the input.
    let offset: Int
    /// What was wrong, such as `expected ',' or '}' after an object member, found '"'`.
    let reason: String
    /// Whether the input ended inside the document: a file cut short, rather than one written wrong.
    let endsEarly: Bool

    /// `line L, column C: REASON`.
    package var description: String { "line \(line), column \(column): \(reason)" }

    init(bytes: UnsafeBufferPointer<UInt8>, offset: Int, reason: String, endsEarly: Bool = false) {
        // Counting lines only on failure keeps the parser's hot loop free of bookkeeping.
        var line = 1
        var column = 1
        for index in 0..<min(offset, bytes.count) {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        self.line = line
        self.column = column
        self.offset = offset
        self.reason = reason
        self.endsEarly = endsEarly
    }
}

import Foundation

/// Decodes a chunked request body (RFC 9112 §7.1) incrementally, across partial reads.
/// Chunk extensions are skipped; trailer fields are validated and discarded.
package struct ChunkedBodyDecoder {
    package enum Progress: Equatable {
        case needsMore
        case complete
        case rejected(RequestRejection)
    }

    private enum State {
        case size
        case data(remaining: Int)
        case dataEnd
        case trailers(bytesSeen: Int)
        case done
    }

    private var state = State.size

    package init() {}

    /// Decodes from `bytes`, appending chunk data to `body`; returns how many bytes were consumed.
    /// Bytes of a line that is not complete yet are left unconsumed.
    package mutating func decode(_ bytes: UnsafeRawBufferPointer, into body: inout Data, limits: ParserLimits) -> (consumed: Int, outcome: Progress) {
        var position = 0
        while true {
            let available = UnsafeRawBufferPointer(rebasing: bytes[position...])
            switch state {
            case .done:
                return (position, .complete)
            case .size:
                // The limit counts the bytes before the line feed, whether or not it has arrived, so that where
                // the reads happen to end never decides between this rejection and another.
                guard let (line, length) = Self.line(in: available) else {
                    if available.count > limits.maxChunkLineLength { return (position, .rejected(Self.chunkLineTooLong)) }
                    return (position, .needsMore)
                }
                guard length - 1 <= limits.maxChunkLineLength else { return (position, .rejected(Self.chunkLineTooLong)) }
                guard let size = Self.chunkSize(line) else { return (position, .rejected(.malformed("A chunk size is not valid hexadecimal."))) }
                guard size <= limits.maxBodyBytes - body.count else { return (position, .rejected(.bodyTooLarge(limit: limits.maxBodyBytes))) }
                position += length
                state = size == 0 ? .trailers(bytesSeen: 0) : .data(remaining: size)
            case .data(let remaining):
                guard !available.isEmpty else { return (position, .needsMore) }
                let take = min(remaining, available.count)
                body.append(contentsOf: UnsafeRawBufferPointer(rebasing: available[..<take]))
                position += take
                state = take == remaining ? .dataEnd : .data(remaining: remaining - take)
            case .dataEnd:
                guard let first = available.first else { return (position, .needsMore) }
                if first == ASCII.lf {
                    position += 1
                } else if first == ASCII.cr {
                    guard available.count >= 2 else { return (position, .needsMore) }
                    guard available[1] == ASCII.lf else { return (position, .rejected(.malformed("A chunk is not followed by CRLF."))) }
                    position += 2
                } else {
                    return (position, .rejected(.malformed("A chunk is longer than its declared size.")))
                }
                state = .size
            case .trailers(let seen):
                guard let (line, length) = Self.line(in: available) else {
                    // Too large once no completion could fit, except as the empty line that ends the trailers
                    // (a lone CR may still become one).
                    let mayEnd = available.isEmpty || (available.count == 1 && available[0] == ASCII.cr)
                    if !mayEnd, seen + available.count + 1 > limits.maxHeaderBytes { return (position, .rejected(Self.trailersTooLarge(limits))) }
                    return (position, .needsMore)
                }
                position += length
                if line.isEmpty {
                    state = .done
                    continue
                }
                guard seen + length <= limits.maxHeaderBytes else { return (position, .rejected(Self.trailersTooLarge(limits))) }
                guard Self.isValidTrailer(line) else { return (position, .rejected(.malformed("A trailer field is malformed."))) }
                state = .trailers(bytesSeen: seen + length)
            }
        }
    }

    /// The next line without its line ending, and its length including the ending.
    private static func line(in bytes: UnsafeRawBufferPointer) -> (UnsafeRawBufferPointer, Int)? {
        guard let newline = bytes.firstIndex(of: ASCII.lf) else { return nil }
        var end = newline
        if end > 0, bytes[end - 1] == ASCII.cr { end -= 1 }
        return (UnsafeRawBufferPointer(rebasing: bytes[..<end]), newline + 1)
    }

    /// `1*HEXDIG [ BWS ";" chunk-ext ]`; `nil` when malformed or absurdly large.
    private static func chunkSize(_ line: UnsafeRawBufferPointer) -> Int? {
        var size = 0
        var digits = 0
        var index = 0
        while index < line.count, let digit = ASCII.hexValue(line[index]) {
            guard digits < 15 else { return nil }
            size = size << 4 | digit
            digits += 1
            index += 1
        }
        guard digits > 0 else { return nil }
        while index < line.count, ASCII.isWhitespace(line[index]) { index += 1 }
        guard index == line.count || line[index] == ASCII.semicolon else { return nil }
        guard line[index...].allSatisfy(ASCII.isFieldValue) else { return nil }
        return size
    }

    private static func isValidTrailer(_ line: UnsafeRawBufferPointer) -> Bool {
        guard let colon = line.firstIndex(of: ASCII.colon), colon > 0 else { return false }
        return line[..<colon].allSatisfy(ASCII.isToken) && line[(colon + 1)...].allSatisfy(ASCII.isFieldValue)
    }

    private static let chunkLineTooLong = RequestRejection.malformed("A chunk-size line is too long.")

    private static func trailersTooLarge(_ limits: ParserLimits) -> RequestRejection {
        .headTooLarge("The trailer fields exceed the limit of \(limits.maxHeaderBytes) bytes.")
    }
}

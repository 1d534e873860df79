#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds the end of a request head across partial reads without rescanning bytes already seen, and
/// enforces the request-line and header-block size limits while the head is still incomplete.
struct RequestHeadScanner {
    enum Progress: Equatable {
        case incomplete
        /// The head (request line and fields, without leading empty lines) spans `start..<end`, where `end`
        /// is just past the empty line that terminates it.
        case complete(start: Int, end: Int)
        case rejected(RequestRejection)
    }

    private var searchFrom = 0
    private var headStart = 0
    private var lineStart = 0

    /// Forgets progress; call after a head has been consumed.
    mutating func reset() {
        self = RequestHeadScanner()
    }

    /// Scans `bytes` (the unread input, starting at the first byte of this request) for the end of the head.
    mutating func scan(_ bytes: UnsafeRawBufferPointer, limits: ParserLimits) -> Progress {
        guard let base = bytes.baseAddress else { return .incomplete }
        while searchFrom < bytes.count, let found = memchr(base + searchFrom, Int32(ASCII.lf), bytes.count - searchFrom) {
            let newline = base.distance(to: UnsafeRawPointer(found))
            var lineEnd = newline
            if lineEnd > lineStart, bytes[lineEnd - 1] == ASCII.cr { lineEnd -= 1 }
            let isEmpty = lineEnd == lineStart
            if lineStart == headStart {
                if isEmpty {
                    // RFC 9112 §2.2: ignore empty lines before the request line.
                    headStart = newline + 1
                } else if lineEnd - lineStart > limits.maxRequestLineLength {
                    return .rejected(Self.requestLineTooLong(limits))
                }
            } else if isEmpty {
                return .complete(start: headStart, end: newline + 1)
            }
            lineStart = newline + 1
            searchFrom = lineStart
            if lineStart > limits.maxHeaderBytes {
                return .rejected(Self.headTooLarge(limits))
            }
        }
        searchFrom = bytes.count
        // The incomplete line is judged as the complete one will be, so that where the reads happen to end
        // never decides between this rejection and another: a CR at its end may be half of its line ending,
        // which the limits do not count, and a lone CR may become the empty line that ends the head.
        let endsInCR = bytes.count > lineStart && bytes[bytes.count - 1] == ASCII.cr
        if lineStart == headStart, bytes.count - headStart - (endsInCR ? 1 : 0) > limits.maxRequestLineLength {
            return .rejected(Self.requestLineTooLong(limits))
        }
        let mayEndTheHead = bytes.count == lineStart || (bytes.count == lineStart + 1 && endsInCR)
        if bytes.count > limits.maxHeaderBytes, !mayEndTheHead {
            return .rejected(Self.headTooLarge(limits))
        }
        return .incomplete
    }

    private static func requestLineTooLong(_ limits: ParserLimits) -> RequestRejection {
        .headTooLarge("The request line exceeds the limit of \(limits.maxRequestLineLength) bytes.")
    }

    private static func headTooLarge(_ limits: ParserLimits) -> RequestRejection {
        .headTooLarge("The request line and headers exceed the limit of \(limits.maxHeaderBytes) bytes.")
    }
}

/// The lines of a `text/event-stream` body, incrementally, as the WHATWG HTML standard splits them (§9.2.5
/// "Parsing an event stream"):
/// - lines end with CRLF, LF or CR, also when the CR and the LF arrive in different chunks;
/// - a leading UTF-8 byte order mark is skipped; bytes are decoded as UTF-8 one line at a time, so a character
///   split between chunks survives, and invalid bytes become U+FFFD;
/// - `:` starts a comment; `field: value` drops one space after the colon; a line without a colon is a field
///   with an empty value.
///
/// The one tokenizer of the package: ServiceKit's event streams, the drift check and the recording's cutting
/// into events all read through it.
package struct ServerSentEventLines {
    /// One line of the stream.
    package enum Line: Hashable, Sendable {
        /// An empty line: it dispatches the event read so far.
        case blank
        /// A line starting with a colon; the text after the colon, one leading space dropped.
        case comment(String)
        /// A field and its value.
        case field(name: String, value: String)
    }

    private var line: [UInt8] = []
    private var afterCR = false
    private var atStart = true

    /// A tokenizer at the start of a stream.
    package init() {}

    /// Reads `bytes` and hands `each` the lines they complete, in order; a line not yet ended waits for the
    /// next bytes, and is dropped when none come.
    package mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>, _ each: (Line) -> Void) {
        for byte in bytes {
            if afterCR {
                afterCR = false
                if byte == UInt8(ascii: "\n") { continue }
            }
            switch byte {
            case UInt8(ascii: "\r"):
                afterCR = true
                each(endLine())
            case UInt8(ascii: "\n"):
                each(endLine())
            default:
                line.append(byte)
            }
        }
    }

    private mutating func endLine() -> Line {
        if atStart {
            atStart = false
            if line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
        }
        defer { line.removeAll(keepingCapacity: true) }
        guard !line.isEmpty else { return .blank }
        let colon = line.firstIndex(of: UInt8(ascii: ":"))
        var value = colon.map { line[($0 + 1)...] } ?? []
        if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        let text = String(decoding: value, as: UTF8.self)
        if colon == line.startIndex { return .comment(text) }
        return .field(name: String(decoding: line[..<(colon ?? line.endIndex)], as: UTF8.self), value: text)
    }
}

/// Server-sent events from the bytes of a `text/event-stream` body, incrementally, as the WHATWG HTML standard
/// interprets the lines of ``ServerSentEventLines`` (§9.2.6 "Interpreting an event stream"):
/// - a blank line dispatches the event; unknown fields and comments are ignored;
/// - `data` lines accumulate, joined by LF; an event with no data is not dispatched (but its `id` counts);
/// - `id` containing U+0000 is ignored; `retry` counts only when it is all ASCII digits (more than `Int.max`
///   counts as `Int.max`);
/// - at the end of the stream, an event not closed by a blank line is discarded, as the standard says.
package struct ServerSentEventParser {
    /// One dispatched event.
    package struct Event: Hashable, Sendable {
        /// The `event` field's value, or `"message"` when the event named no type.
        package let type: String
        /// The `data` fields' values joined by line feeds.
        package let data: String
        /// The last `id` the stream set, at or before this event; `""` when none was set.
        package let lastEventID: String
        /// The last reconnection time the stream asked for, in milliseconds, at most `Int.max`; `nil` when it
        /// never did.
        package let retry: Int?
    }

    private var lines = ServerSentEventLines()
    private var data = ""
    private var hasData = false
    private var type = ""
    private var lastEventID = ""
    private var retry: Int?

    /// A parser at the start of a stream.
    package init() {}

    /// Parses `bytes` and returns the events they complete, in order.
    package mutating func feed(_ bytes: some Sequence<UInt8>) -> [Event] {
        // One loop over contiguous bytes: unspecialized generic iteration costs about a microsecond a byte.
        if let events = bytes.withContiguousStorageIfAvailable({ feed(contiguous: $0) }) { return events }
        return Array(bytes).withUnsafeBufferPointer { feed(contiguous: $0) }
    }

    private mutating func feed(contiguous bytes: UnsafeBufferPointer<UInt8>) -> [Event] {
        var events: [Event] = []
        // Taken out while it calls back into self, and put back after: no copy of its buffer.
        var lines = self.lines
        self.lines = ServerSentEventLines()
        lines.feed(bytes) { line in
            switch line {
            case .blank:
                if let event = dispatch() { events.append(event) }
            case .comment:
                break
            case .field(let name, let value):
                process(field: name, value: value)
            }
        }
        self.lines = lines
        return events
    }

    private mutating func process(field: String, value: String) {
        switch field {
        case "event":
            type = value
        case "data":
            if hasData { data += "\n" }
            data += value
            hasData = true
        case "id":
            if !value.unicodeScalars.contains("\0") { lastEventID = value }
        case "retry":
            if !value.isEmpty, value.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
                // Digits beyond the integer range still ask for a (very long) time: the largest integer.
                retry = Int(value) ?? Int.max
            }
        default:
            break
        }
    }

    private mutating func dispatch() -> Event? {
        defer {
            data = ""
            hasData = false
            type = ""
        }
        guard hasData else { return nil }
        return Event(type: type.isEmpty ? "message" : type, data: data, lastEventID: lastEventID, retry: retry)
    }
}

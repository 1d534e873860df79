/// Turns the bytes of a `text/event-stream` body into events, incrementally, following the WHATWG HTML
/// standard (§9.2.5 "Parsing an event stream", §9.2.6 "Interpreting an event stream"):
/// - lines end with CRLF, LF or CR, also when the CR and the LF arrive in different chunks;
/// - a leading UTF-8 byte order mark is skipped; bytes are decoded as UTF-8 one line at a time, so a
///   character split between chunks survives, and invalid bytes become U+FFFD;
/// - a blank line dispatches the event; `:` starts a comment; `field: value` drops one space after the
///   colon; a line without a colon is a field with an empty value; unknown fields are ignored;
/// - `data` lines accumulate, joined by LF; an event with no data is not dispatched (but its `id` counts);
/// - `id` containing U+0000 is ignored; `retry` counts only when it is all ASCII digits;
/// - at the end of the stream, an event not closed by a blank line is discarded, as the standard says.
struct ServerSentEventParser {
    private var line: [UInt8] = []
    private var afterCR = false
    private var atStart = true
    private var data = ""
    private var hasData = false
    private var type = ""
    private var lastEventID = ""
    private var retry: Int?

    /// Parses `bytes` and returns the events they complete, in order.
    mutating func feed(_ bytes: some Sequence<UInt8>) -> [ServerSentEvent] {
        // One loop over contiguous bytes: unspecialized generic iteration costs about a microsecond a byte.
        if let events = bytes.withContiguousStorageIfAvailable({ feed(contiguous: $0) }) { return events }
        return Array(bytes).withUnsafeBufferPointer { feed(contiguous: $0) }
    }

    private mutating func feed(contiguous bytes: UnsafeBufferPointer<UInt8>) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            if afterCR {
                afterCR = false
                if byte == UInt8(ascii: "\n") { continue }
            }
            switch byte {
            case UInt8(ascii: "\r"):
                afterCR = true
                endLine(into: &events)
            case UInt8(ascii: "\n"):
                endLine(into: &events)
            default:
                line.append(byte)
            }
        }
        return events
    }

    private mutating func endLine(into events: inout [ServerSentEvent]) {
        if atStart {
            atStart = false
            if line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
        }
        defer { line.removeAll(keepingCapacity: true) }
        if line.isEmpty {
            if let event = dispatch() { events.append(event) }
            return
        }
        if line.first == UInt8(ascii: ":") { return }
        let name: [UInt8]
        var value: ArraySlice<UInt8>
        if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            name = Array(line[..<colon])
            value = line[(colon + 1)...]
            if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        } else {
            name = line
            value = []
        }
        process(field: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self))
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
                retry = Int(value)
            }
        default:
            break
        }
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            data = ""
            hasData = false
            type = ""
        }
        guard hasData else { return nil }
        return ServerSentEvent(type: type.isEmpty ? "message" : type, data: data,
                               lastEventID: lastEventID, retry: retry)
    }
}

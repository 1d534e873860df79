import Foundation

/// Reads a `text/event-stream` body as a client does (the WHATWG event-stream interpretation): lines end
/// with CR LF, LF or CR; `field: value` with at most one space after the colon; `data` lines joined by line
/// feeds; a blank line dispatches an event when it has data. Lenient on purpose, unlike the recording's own
/// cutting, which must keep exact bytes: the drift check only needs each event's name and data.
enum ServerSentEvents {
    /// One dispatched event: its `event` field (`message` when absent) and its data.
    struct Event: Sendable, Hashable {
        let name: String
        let data: String
    }

    /// The events `stream` dispatches, in order; an unterminated last event is not dispatched.
    static func events(in stream: Data) -> [Event] {
        let text = String(decoding: stream, as: UTF8.self)
        var events: [Event] = []
        var name: String?
        var data: [Substring] = []
        var lines = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false)
        // The text after the last line feed is an unfinished line, never dispatched.
        lines.removeLast()
        for line in lines {
            if line.isEmpty {
                if !data.isEmpty { events.append(Event(name: name ?? "message", data: data.joined(separator: "\n"))) }
                name = nil
                data = []
                continue
            }
            guard !line.hasPrefix(":") else { continue }
            let colon = line.firstIndex(of: ":") ?? line.endIndex
            var value = colon == line.endIndex ? Substring("") : line[line.index(after: colon)...]
            if value.hasPrefix(" ") { value = value.dropFirst() }
            switch line[..<colon] {
            case "event": name = String(value)
            case "data": data.append(value)
            default: break
            }
        }
        return events
    }
}

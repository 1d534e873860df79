import Foundation

/// A streamed response body (`text/event-stream`, or any chunked stream) as a cassette stores it: the
/// parts in the order they arrived, each with its time offset from the start of the response, so that
/// replay sends each part when it is due.
///
/// In the file, `"body": {"stream": [PART, ...]}` where each part is an object with `"offsetMs"` (whole
/// milliseconds from the start of the response, not decreasing; default 0) and either server-sent event
/// fields or raw bytes:
/// - an event: any of `"event"`, `"id"`, `"retry"` (a whole number), `"data"` (may hold line feeds) and
///   `"comment"`, written back as `event: ...`, `id: ...`, `retry: ...`, one `data: ...` line per line of
///   data, and `: ...` comment lines, in that order, then a blank line;
/// - raw bytes: `"text"` (UTF-8) or `"base64"`, sent exactly as given.
///
/// Beside `"stream"`, `"ending"` says how a stream that did not end properly ended (see ``Ending``):
/// `"broken"` or `"unfinished"`; a complete stream leaves it out.
///
/// ```json
/// "body": {"stream": [
///   {"offsetMs": 0, "data": "{\"delta\":\"Hel\"}"},
///   {"offsetMs": 120, "event": "done", "data": "[DONE]"}
/// ]}
/// ```
package struct RecordedStream: Sendable, Hashable {
    /// One part of a stream and when it was sent.
    package struct Part: Sendable, Hashable {
        /// Milliseconds from the start of the response (when its head was sent) to this part.
        package var offsetMs: Int
        /// What the part sends.
        package var content: Content

        /// A part sent `offsetMs` milliseconds into the response.
        package init(offsetMs: Int, _ content: Content) {
            self.offsetMs = offsetMs
            self.content = content
        }
    }

    /// What one part of a stream sends.
    package enum Content: Sendable, Hashable {
        /// A server-sent event, written in the standard's field syntax.
        case event(ServerSentEventFields)
        /// UTF-8 text, sent as is.
        case text(String)
        /// Any other bytes, sent as is (`"base64"` in the file).
        case binary(Data)
    }

    /// How a recorded stream ended, and so how replay ends it after its last part.
    package enum Ending: String, Sendable, Hashable {
        /// The upstream ended the body properly; replay does the same. The default, left out of the file.
        case complete
        /// The upstream's connection broke mid-stream (it was reset, or closed before the body's end):
        /// replay closes the connection after the last part without ending the body, so a client sees the
        /// stream cut at the same point.
        case broken
        /// The recording stopped (or was killed), or its client went away, while the stream was still open:
        /// replay keeps the connection open after the last part without sending more, as the upstream did,
        /// until the client gives up or the server stops.
        case unfinished
    }

    /// The parts in the order they are sent.
    package var parts: [Part]
    /// How the stream ended; default ``Ending/complete``.
    package var ending: Ending

    /// A stream of `parts` that ended as `ending` says.
    package init(_ parts: [Part], ending: Ending = .complete) {
        self.parts = parts
        self.ending = ending
    }

    /// Every part's bytes, concatenated: the whole body as a client reads it.
    package var data: Data {
        var bytes = Data()
        for part in parts { bytes += part.content.data }
        return bytes
    }
}

extension RecordedStream.Content {
    /// The bytes this part sends.
    package var data: Data {
        switch self {
        case .event(let fields): Data(fields.wireText.utf8)
        case .text(let text): Data(text.utf8)
        case .binary(let bytes): bytes
        }
    }
}

/// The fields of one server-sent event as a cassette spells them; every field is optional.
package struct ServerSentEventFields: Sendable, Hashable {
    /// The `event` field (the event's type).
    var event: String?
    /// The `id` field.
    var id: String?
    /// The `retry` field, in milliseconds.
    var retry: Int?
    /// The data; each of its lines becomes one `data:` line.
    package var data: String?
    /// A comment; each of its lines becomes one `:` line.
    var comment: String?

    /// An event with the given fields.
    package init(event: String? = nil, id: String? = nil, retry: Int? = nil, data: String? = nil, comment: String? = nil) {
        self.event = event
        self.id = id
        self.retry = retry
        self.data = data
        self.comment = comment
    }

    /// The event in the standard's syntax, ending with the blank line that dispatches it.
    var wireText: String {
        var text = ""
        if let comment {
            for line in comment.split(separator: "\n", omittingEmptySubsequences: false) { text += ": \(line)\n" }
        }
        if let event { text += "event: \(event)\n" }
        if let id { text += "id: \(id)\n" }
        if let retry { text += "retry: \(retry)\n" }
        if let data {
            for line in data.split(separator: "\n", omittingEmptySubsequences: false) { text += "data: \(line)\n" }
        }
        return text + "\n"
    }
}

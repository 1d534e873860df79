import Foundation

/// A stream body's parts, their offsets and the stream's ending, kept in a HAR `content` object's `_stream`
/// field (HAR allows extension fields whose names start with `_`): HAR itself keeps a body as one text, so
/// without it a stream would come back from ``Cassette/importing(_:options:)`` as a plain body.
package struct HARStream: Codable, Sendable, Hashable {
    /// One part: exactly one of ``text``, ``base64`` or ``event`` is set.
    struct Part: Codable, Sendable, Hashable {
        /// Milliseconds from the response's head to this part.
        var offsetMs: Int
        /// A text part.
        var text: String?
        /// A binary part, base64.
        var base64: String?
        /// A server-sent event, as its fields.
        var event: Event?
    }

    /// The fields of a server-sent event; see ``ServerSentEventFields``.
    struct Event: Codable, Sendable, Hashable {
        var event: String?
        var id: String?
        var retry: Int?
        var data: String?
        var comment: String?
    }

    /// The parts in order.
    var parts: [Part]
    /// `broken` or `unfinished`; absent when the stream ended properly.
    var ending: String?

    /// The record of `stream`.
    init(_ stream: RecordedStream) {
        parts = stream.parts.map { part in
            switch part.content {
            case .text(let text): Part(offsetMs: part.offsetMs, text: text)
            case .binary(let bytes): Part(offsetMs: part.offsetMs, base64: bytes.base64EncodedString())
            case .event(let fields):
                Part(
                    offsetMs: part.offsetMs,
                    event: Event(
                        event: fields.event, id: fields.id, retry: fields.retry, data: fields.data,
                        comment: fields.comment))
            }
        }
        ending = stream.ending == .complete ? nil : stream.ending.rawValue
    }

    /// The stream this record holds, which must send exactly `body`, the entry's `content.text` as bytes.
    /// Throws ``MockServerError`` `invalidField` naming what is wrong: a part with not exactly one kind, an
    /// offset that decreases, an unknown ending, or parts whose bytes differ from the body's.
    func recordedStream(body: Data, entry: Int?) throws(MockServerError) -> RecordedStream {
        func invalid(_ reason: String) -> MockServerError {
            MockServerError(code: .invalidField, entry: entry, reason: "response.content._stream \(reason)")
        }
        var recorded: [RecordedStream.Part] = []
        for (index, part) in parts.enumerated() {
            guard part.offsetMs >= (recorded.last?.offsetMs ?? 0) else {
                throw invalid("part \(index): offsetMs \(part.offsetMs) is negative or less than the part before")
            }
            let content: RecordedStream.Content
            switch (part.text, part.base64, part.event) {
            case (let text?, nil, nil): content = .text(text)
            case (nil, let base64?, nil):
                guard let bytes = Data(base64Encoded: base64) else { throw invalid("part \(index): base64 is not valid base64") }
                content = .binary(bytes)
            case (nil, nil, let event?):
                content = .event(
                    ServerSentEventFields(
                        event: event.event, id: event.id, retry: event.retry, data: event.data,
                        comment: event.comment))
            default:
                throw invalid("part \(index): expected exactly one of text, base64 or event")
            }
            recorded.append(RecordedStream.Part(offsetMs: part.offsetMs, content))
        }
        var ending = RecordedStream.Ending.complete
        if let name = self.ending {
            guard let known = RecordedStream.Ending(rawValue: name), known != .complete else {
                throw invalid("ending \"\(name)\" is not broken or unfinished")
            }
            ending = known
        }
        let stream = RecordedStream(recorded, ending: ending)
        guard stream.data == body else { throw invalid("parts do not add up to the bytes of content.text") }
        return stream
    }
}

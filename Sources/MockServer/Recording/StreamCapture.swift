import Foundation
import ServiceReplayShared

/// Cuts a forwarded streamed body into ``RecordedStream/Part``s as it passes, each with the time since the
/// head arrived, and hands each part out as soon as it is complete, so that nothing accumulates here.
///
/// A `text/event-stream` body is cut into events at each blank line; an event is stored as its fields when
/// writing them back gives the very bytes received, else as exact text (or base64 when it is not UTF-8).
/// Any other stream is cut where its pieces arrived: each piece is one part, as text when it is UTF-8 (a
/// character split between two pieces is held back for the next one), else as base64. Bytes after the last
/// complete part come out of ``finish()``.
final class StreamCapture: Sendable {
    /// How a body is cut into parts.
    enum Kind: Sendable {
        /// Server-sent events, one part per event.
        case events
        /// Any other stream, one part per piece as it arrived.
        case chunks
    }

    private struct State {
        var unfinished = Data()
        var lastOffset = 0
        var byteCount = 0
    }

    let kind: Kind
    private let start: ContinuousClock.Instant
    private let state = Lock(State())

    /// A capture whose offsets count from now, when the head arrived.
    init(_ kind: Kind) {
        self.kind = kind
        start = ContinuousClock.now
    }

    /// How many body bytes have passed so far.
    var byteCount: Int { state.withLock { $0.byteCount } }

    /// Takes the next bytes of the body; returns the parts they complete.
    func add(_ bytes: Data) -> [RecordedStream.Part] {
        let elapsed = Int((DurationSpelling.seconds(ContinuousClock.now - start) * 1000).rounded())
        return state.withLock { state in
            state.byteCount += bytes.count
            state.unfinished.append(bytes)
            let offset = max(elapsed, state.lastOffset)
            state.lastOffset = offset
            var parts: [RecordedStream.Part] = []
            switch kind {
            case .events:
                while let end = Self.eventEnd(in: state.unfinished) {
                    let event = Data(state.unfinished[state.unfinished.startIndex..<end])
                    state.unfinished.removeSubrange(state.unfinished.startIndex..<end)
                    parts.append(RecordedStream.Part(offsetMs: offset, Self.content(of: event)))
                }
            case .chunks:
                let held = Self.incompleteCharacterLength(at: state.unfinished)
                let piece = Data(state.unfinished.dropLast(held))
                state.unfinished.removeFirst(piece.count)
                if !piece.isEmpty { parts.append(RecordedStream.Part(offsetMs: offset, Self.raw(piece))) }
            }
            return parts
        }
    }

    /// The bytes after the last complete part, as one final raw part, when there are any.
    func finish() -> [RecordedStream.Part] {
        state.withLock { state in
            guard !state.unfinished.isEmpty else { return [] }
            defer { state.unfinished = Data() }
            return [RecordedStream.Part(offsetMs: state.lastOffset, Self.raw(state.unfinished))]
        }
    }

    /// Where the first event ends (after its blank line: LF LF or CR LF CR LF), or `nil`. Streams that end
    /// lines with a lone CR are kept whole in the final raw part.
    private static func eventEnd(in data: Data) -> Data.Index? {
        var previous: UInt8 = 0
        var beforePrevious: UInt8 = 0
        var index = data.startIndex
        while index < data.endIndex {
            let byte = data[index]
            let next = data.index(after: index)
            if byte == 0x0A, previous == 0x0A || (previous == 0x0D && beforePrevious == 0x0A) { return next }
            beforePrevious = previous
            previous = byte
            index = next
        }
        return nil
    }

    /// How many bytes at the end of `data` begin a UTF-8 character that the next piece completes: 0 unless
    /// the rest is valid UTF-8 and the last one to three bytes are the start of a longer sequence.
    private static func incompleteCharacterLength(at data: Data) -> Int {
        let tail = data.suffix(3)
        guard let lead = tail.lastIndex(where: { $0 & 0xC0 != 0x80 }) else { return 0 }
        let byte = data[lead]
        let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
        let present = data.distance(from: lead, to: data.endIndex)
        guard length > present, String(validUTF8: data[data.startIndex..<lead]) != nil else { return 0 }
        return present
    }

    /// The event as fields when they write back to exactly its bytes, else as raw bytes.
    private static func content(of event: Data) -> RecordedStream.Content {
        guard let text = String(validUTF8: event) else { return .binary(event) }
        if let fields = fields(of: text), fields.wireText == text { return .event(fields) }
        return .text(text)
    }

    private static func raw(_ bytes: Data) -> RecordedStream.Content {
        String(validUTF8: bytes).map(RecordedStream.Content.text) ?? .binary(bytes)
    }

    /// The fields of one event, read with the package's event-stream tokenizer; `nil` when it has a field
    /// the format does not store (the exact text is kept then). Whether the fields give back the very bytes
    /// received is the caller's check.
    private static func fields(of text: String) -> ServerSentEventFields? {
        var fields = ServerSentEventFields()
        var data: [String] = []
        var comments: [String] = []
        var storable = true
        var lines = ServerSentEventLines()
        Array(text.utf8).withUnsafeBufferPointer { bytes in
            lines.feed(bytes) { line in
                switch line {
                case .blank: break
                case .comment(let comment): comments.append(comment)
                case .field("data", let value): data.append(value)
                case .field("event", let value): fields.event = value
                case .field("id", let value): fields.id = value
                case .field("retry", let value):
                    if let retry = Int(value) { fields.retry = retry } else { storable = false }
                case .field: storable = false
                }
            }
        }
        guard storable else { return nil }
        if !data.isEmpty { fields.data = data.joined(separator: "\n") }
        if !comments.isEmpty { fields.comment = comments.joined(separator: "\n") }
        return fields
    }
}

extension RecordedStream {
    /// How far apart, at most, the first and last pieces of a chunked answer arrived for it to count as
    /// arriving at once (see ``recordedBody(contentType:)``).
    static let atOnceMs = 10

    /// Media types whose bodies are streams by nature, recorded as streams however their pieces arrived.
    private static let streamingTypes: Set<String> = [
        "text/event-stream", "application/x-ndjson", "application/ndjson", "application/jsonl", "application/x-jsonlines",
        "application/jsonlines", "application/json-seq", "multipart/x-mixed-replace",
    ]

    /// The body a recorded stream is stored as. Many servers chunk ordinary documents (HTML, CSV, text):
    /// a stream that ended properly, whose last piece arrived at most ``atOnceMs`` ms after its first, and
    /// whose `contentType` is not a streaming one (server-sent events, NDJSON, JSON lines, JSON text
    /// sequences, `multipart/x-mixed-replace`), is such a document, and is stored as a plain body (see
    /// ``RecordedBody/init(_:contentType:)``); any other stays a stream.
    func recordedBody(contentType: String?) -> RecordedBody {
        guard ending == .complete, !Self.streamingTypes.contains(MediaType(contentType).essence),
            (parts.last?.offsetMs ?? 0) - (parts.first?.offsetMs ?? 0) <= Self.atOnceMs
        else { return .stream(self) }
        return RecordedBody(data, contentType: contentType)
    }
}

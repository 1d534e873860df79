import Foundation
import Locking

/// Records a forwarded `text/event-stream` body as it passes: the bytes are cut into events at each blank
/// line, and each event becomes one ``RecordedStream/Part`` with the time since the head arrived. An event
/// is stored as its fields when writing them back gives the very bytes received, else as exact text (or
/// base64 when it is not UTF-8); bytes after the last blank line become a final raw part.
final class StreamCapture: Sendable {
    private struct State {
        var parts: [RecordedStream.Part] = []
        var unfinished = Data()
    }

    private let start: ContinuousClock.Instant
    private let state = Lock(State())

    /// A capture whose offsets count from now, when the head arrived.
    init() {
        start = ContinuousClock.now
    }

    /// Takes the next bytes of the body.
    func add(_ bytes: Data) {
        let offset = Int((DurationSpelling.seconds(ContinuousClock.now - start) * 1000).rounded())
        state.withLock { state in
            state.unfinished.append(bytes)
            while let end = Self.eventEnd(in: state.unfinished) {
                let event = Data(state.unfinished[state.unfinished.startIndex..<end])
                state.unfinished.removeSubrange(state.unfinished.startIndex..<end)
                state.parts.append(RecordedStream.Part(offsetMs: max(offset, state.parts.last?.offsetMs ?? 0), Self.content(of: event)))
            }
        }
    }

    /// The recorded stream, with any bytes after the last blank line as a final raw part.
    func finish() -> RecordedStream {
        state.withLock { state in
            var parts = state.parts
            if !state.unfinished.isEmpty {
                let offset = parts.last?.offsetMs ?? 0
                parts.append(RecordedStream.Part(offsetMs: offset, Self.raw(state.unfinished)))
            }
            return RecordedStream(parts)
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

    /// The event as fields when they write back to exactly its bytes, else as raw bytes.
    private static func content(of event: Data) -> RecordedStream.Content {
        guard let text = String(validating: event, as: UTF8.self) else { return .binary(event) }
        if let fields = fields(of: text), fields.wireText == text { return .event(fields) }
        return .text(text)
    }

    private static func raw(_ bytes: Data) -> RecordedStream.Content {
        String(validating: bytes, as: UTF8.self).map(RecordedStream.Content.text) ?? .binary(bytes)
    }

    /// The fields of an LF-terminated event in the order ``ServerSentEventFields/wireText`` writes them;
    /// `nil` when a line is not `name: value` of a known field (the exact text is kept then).
    private static func fields(of text: String) -> ServerSentEventFields? {
        var fields = ServerSentEventFields()
        var data: [Substring] = []
        var comments: [Substring] = []
        for line in text.dropLast(2).split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(": ") { comments.append(line.dropFirst(2)); continue }
            guard let colon = line.firstIndex(of: ":"), line[line.index(after: colon)...].hasPrefix(" ") else { return nil }
            let value = String(line[line.index(colon, offsetBy: 2)...])
            switch line[..<colon] {
            case "data": data.append(Substring(value))
            case "event": fields.event = value
            case "id": fields.id = value
            case "retry":
                guard let retry = Int(value) else { return nil }
                fields.retry = retry
            default: return nil
            }
        }
        if !data.isEmpty { fields.data = data.joined(separator: "\n") }
        if !comments.isEmpty { fields.comment = comments.joined(separator: "\n") }
        return fields
    }
}

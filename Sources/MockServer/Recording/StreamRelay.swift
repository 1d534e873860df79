import Foundation
import ServiceReplayShared

/// A response body the upstream streams, on its way to the cassette and the client at once: each piece is
/// cut into parts (see ``StreamCapture``), redacted and appended to the capture log (see
/// ``CassetteTape/beginStream(_:)``), and passed to the client, as it arrives; nothing of it accumulates in
/// memory.
///
/// Streamed are `text/event-stream` bodies (cut into events) and bodies whose length the upstream did not
/// declare (chunked, or ended by closing), cut where their pieces arrived, except JSON documents: a client
/// needs a document whole, so it is recorded whole, as before. A chunked page whose pieces all arrived at
/// once is relayed as it comes but joins the cassette as a plain body (see ``RecordedStream/recordedBody(contentType:)``).
/// A body whose length the upstream declared is no stream: ``DeclaredBodyRelay`` passes it on.
final class StreamRelay: Sendable {
    /// Where the parts are recorded.
    private struct Recording: Sendable {
        let capture: StreamCapture
        let tape: CassetteTape
        let stream: Int
        let redaction: RedactionRules
        let contentType: String?
        let secrets: [RedactionPass.Echo]

        func append(_ parts: [RecordedStream.Part]) {
            tape.appendStream(stream, parts: redaction.redact(parts, contentType: contentType, echoing: secrets))
        }
    }

    /// What the client is sent.
    let live: LiveStream
    private let recording: Recording?
    private let bytes = Lock(0)

    /// The relay for a response with `status` and header `fields` from the upstream (to a request other than
    /// `HEAD`), or `nil` when its body is not streamed. With a `tape`, the stream is recorded there: `request` (as recorded, unredacted) at
    /// `recordedAt`, redacted with `redaction`.
    /// When the client goes away, `cancelUpstream` is called after `clientGoneGrace`
    /// (``RecordingOptions/clientGoneGrace``): nobody wants the rest of the stream, but an upstream that ends
    /// it meanwhile has it recorded as ended.
    static func start(
        status: Int, fields: [(name: String, value: String)], request: RecordedRequest, recordedAt: Date,
        tape: CassetteTape?, redaction: RedactionRules, clientGoneGrace: Duration,
        cancelUpstream: @escaping @Sendable () -> Void
    ) -> StreamRelay? {
        guard status >= 200, status != 204, status != 304 else { return nil }  // answers without a body
        let headers = ProxyHeaders.response(fields, bodyCount: nil)
        let mediaType = MediaType(headers["Content-Type"])
        let kind: StreamCapture.Kind
        if mediaType.isEventStream {
            kind = .events
        } else if !mediaType.isJSON, !fields.contains(where: { $0.name.caseInsensitiveEquals("content-length") }) {
            kind = .chunks
        } else {
            return nil
        }
        let live = LiveStream(head: HTTPResponse(status: status, headers: headers))
        live.onCancel {
            // Clients often close right after the last event (OpenAI's after `data: [DONE]`), while the
            // upstream's end is still on its way: how the stream is recorded must depend on the upstream,
            // not on the client's timing, so the upstream keeps being read for a short while.
            DispatchQueue.global().asyncAfter(deadline: .now() + DurationSpelling.seconds(clientGoneGrace), execute: cancelUpstream)
        }
        guard let tape else { return StreamRelay(live: live, recording: nil) }
        var head = Interaction(
            request: request, outcome: .response(RecordedResponse(status: status, headers: headers, body: .stream(RecordedStream([])))),
            recordedAt: recordedAt)
        let secrets = redaction.secretValues(in: request)
        redaction.redact(&head)
        let recording = Recording(
            capture: StreamCapture(kind), tape: tape, stream: tape.beginStream(head), redaction: redaction,
            contentType: headers["Content-Type"], secrets: secrets)
        return StreamRelay(live: live, recording: recording)
    }

    private init(live: LiveStream, recording: Recording?) {
        self.live = live
        self.recording = recording
    }

    /// Passes the next piece of the body on: to the log, then to the client, so that whatever a client was
    /// sent is recorded even if the recorder is killed right after.
    func pass(_ piece: Data) {
        if let recording {
            recording.append(recording.capture.add(piece))
        }
        bytes.withLock { $0 += piece.count }
        live.send(piece)
    }

    /// Whether the client went away before the end.
    var clientLeft: Bool { live.isCancelled }

    /// How many body bytes have passed.
    var byteCount: Int { bytes.withLock { $0 } }

    /// Ends the stream as `ending` says: in the cassette, with the last bytes as a final part; then for the
    /// client, properly when it is complete, else cut (so a client that saw the end finds the stream recorded).
    /// Returns the recorded interaction, its index and why it could not be logged, when the stream is recorded.
    func end(_ ending: RecordedStream.Ending, durationMs: Int) -> (interaction: Interaction, index: Int, saveError: MockServerError?)? {
        defer { live.finish(ending == .complete ? .complete : .cut) }
        guard let recording else { return nil }
        recording.append(recording.capture.finish())
        return recording.tape.endStream(recording.stream, ending: ending, durationMs: durationMs)
    }
}

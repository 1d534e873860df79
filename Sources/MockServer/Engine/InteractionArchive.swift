import Foundation

/// What a ``PreparedCassette`` keeps of an interaction besides its recorded request and its reply, so that
/// ``ReplayEngine/preparedCassettes`` can rebuild the interaction exactly without the engine holding the decoded
/// cassette (whose JSON bodies would take more memory than the replies serialized from them).
struct InteractionArchive: Sendable {
    /// How the recorded response body was stored; the bytes are the reply's body.
    enum BodyForm: Sendable {
        case empty, json(JSONLayout), text, binary
        /// A stream keeps its recorded parts: the reply holds only their bytes.
        case stream(RecordedStream)
    }

    /// How to get the recorded response headers back from the reply's.
    enum HeaderForm: Sendable {
        /// The reply carries the recorded headers unchanged.
        case replayed
        /// The reply's headers are the recorded ones plus the `Content-Length` it appended last.
        case replayedWithAddedLength
        /// The recorded headers differ otherwise (a recorded `Content-Length`, `Content-Encoding` or
        /// `Transfer-Encoding` was replaced or removed), so they are kept as they were.
        case recorded(HTTPHeaders)
    }

    var recordedAt: Date?
    var durationMs: Int?
    var bodyForm: BodyForm
    var headers: HeaderForm

    /// The reply for `interaction` and the archive that rebuilds it from that reply.
    static func prepare(_ interaction: Interaction, shared: inout SharedStrings) -> (PreparedReply, InteractionArchive) {
        switch interaction.outcome {
        case .webSocket(let conversation):
            return (
                .webSocket(conversation),
                InteractionArchive(
                    recordedAt: interaction.recordedAt, durationMs: interaction.durationMs, bodyForm: .empty, headers: .replayed)
            )
        case .failure(let failure):
            return (
                .failure(failure),
                InteractionArchive(
                    recordedAt: interaction.recordedAt, durationMs: interaction.durationMs,
                    bodyForm: .empty, headers: .replayed)
            )
        case .response(let recorded):
            if case .stream(let stream) = recorded.body.form {
                var head = HTTPResponse(status: recorded.status, headers: recorded.headers)
                head.headers = shared.headers(head.headers)
                let parts = stream.parts.map {
                    HTTPStream.Part(offset: UInt64(max(0, $0.offsetMs)) * 1_000_000, bytes: $0.content.data)
                }
                var replayed = HTTPStream(head: head, parts: parts)
                replayed.ending =
                    switch stream.ending {
                    case .complete: .complete
                    case .broken: .cut
                    case .unfinished: .stall
                    }
                return (
                    .stream(replayed),
                    InteractionArchive(
                        recordedAt: interaction.recordedAt, durationMs: interaction.durationMs,
                        bodyForm: .stream(stream), headers: .recorded(shared.headers(recorded.headers)))
                )
            }
            var response = recorded.replayResponse
            let form: BodyForm =
                switch recorded.body.form {
                case .empty: .empty
                case .json(_, let layout): .json(layout)
                case .text: .text
                case .binary: .binary
                case .stream(let stream): .stream(stream)
                }
            let headerForm: HeaderForm
            if response.headers == recorded.headers {
                headerForm = .replayed
            } else if response.headers.count == recorded.headers.count + 1,
                response.headers.lines.dropLast().elementsEqual(recorded.headers.lines)
            {
                headerForm = .replayedWithAddedLength
            } else {
                headerForm = .recorded(shared.headers(recorded.headers))
            }
            response.headers = shared.headers(response.headers)
            return (
                .response(response),
                InteractionArchive(
                    recordedAt: interaction.recordedAt, durationMs: interaction.durationMs,
                    bodyForm: form, headers: headerForm)
            )
        }
    }

    /// The recorded outcome, rebuilt from the reply it was prepared into.
    func outcome(from reply: PreparedReply) -> Interaction.Outcome {
        switch reply {
        case .failure(let failure):
            return .failure(failure)
        case .webSocket(let conversation):
            return .webSocket(conversation)
        case .stream(let stream):
            guard case .recorded(let recordedHeaders) = headers, case .stream(let parts) = bodyForm else {
                return .response(
                    RecordedResponse(
                        status: stream.head.status, headers: stream.head.headers,
                        body: .binary(stream.wholeResponse.body)))
            }
            return .response(RecordedResponse(status: stream.head.status, headers: recordedHeaders, body: .stream(parts)))
        case .response(let response):
            let recordedHeaders: HTTPHeaders =
                switch headers {
                case .replayed: response.headers
                case .replayedWithAddedLength: HTTPHeaders(Array(response.headers.lines.dropLast()))
                case .recorded(let kept): kept
                }
            let body: RecordedBody =
                switch bodyForm {
                case .empty: .empty
                // The reply's bytes are the value rendered in its layout, which parses back to the same members in order.
                case .json(let layout): (try? CassetteJSON(parsing: response.body)).map { .json($0, layout: layout) } ?? .binary(response.body)
                case .text: .text(String(decoding: response.body, as: UTF8.self))
                case .binary: .binary(response.body)
                case .stream(let stream): .stream(stream)
                }
            return .response(RecordedResponse(status: response.status, headers: recordedHeaders, body: body))
        }
    }
}

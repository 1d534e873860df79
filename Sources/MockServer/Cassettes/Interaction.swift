import Foundation

/// One recorded exchange: a request and what the upstream did about it, either a response or (in a recording
/// that saw one) a transport failure, refused, reset or timed out, that replay reproduces as the same failure.
public struct Interaction: Sendable, Hashable {
    /// What the upstream did.
    package enum Outcome: Sendable, Hashable {
        /// The upstream answered.
        case response(RecordedResponse)
        /// The exchange failed below HTTP; replay reproduces the failure instead of answering.
        case failure(TransportFailure)
        /// The request upgraded to a WebSocket: the conversation that followed.
        case webSocket(RecordedWebSocket)
    }

    /// When the exchange was recorded (UTC); `nil` when unknown.
    public var recordedAt: Date?
    /// How long the upstream took, in whole milliseconds; `nil` when unknown.
    public var durationMs: Int?
    /// The request as the client sent it (secrets already redacted).
    public var request: RecordedRequest
    /// The response, or the transport failure.
    package var outcome: Outcome

    /// Creates an interaction that answers with `response`.
    public init(request: RecordedRequest, response: RecordedResponse, recordedAt: Date? = nil, durationMs: Int? = nil) {
        self.init(request: request, outcome: .response(response), recordedAt: recordedAt, durationMs: durationMs)
    }

    /// Creates an interaction that replays a transport failure.
    init(request: RecordedRequest, failure: TransportFailure, recordedAt: Date? = nil, durationMs: Int? = nil) {
        self.init(request: request, outcome: .failure(failure), recordedAt: recordedAt, durationMs: durationMs)
    }

    /// Creates an interaction from any outcome.
    init(request: RecordedRequest, outcome: Outcome, recordedAt: Date? = nil, durationMs: Int? = nil) {
        self.request = request
        self.outcome = outcome
        self.recordedAt = recordedAt
        self.durationMs = durationMs
    }

    /// The recorded response, or `nil` when the upstream failed below HTTP (the recording then holds a transport
    /// failure, which replays as a reset connection or a server that never answers). For a WebSocket
    /// conversation, the upgrade's answer (`101` and its headers).
    public var response: RecordedResponse? {
        switch outcome {
        case .response(let response): response
        case .webSocket(let conversation): conversation.response
        case .failure: nil
        }
    }

    /// The recorded WebSocket conversation, or `nil` when the request did not upgrade.
    package var webSocket: RecordedWebSocket? {
        guard case .webSocket(let conversation) = outcome else { return nil }
        return conversation
    }

    /// The recorded transport failure, or `nil` when the upstream answered.
    package var failure: TransportFailure? {
        guard case .failure(let failure) = outcome else { return nil }
        return failure
    }
}

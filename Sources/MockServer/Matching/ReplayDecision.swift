/// What ``ReplayEngine/answer(_:)`` decided for one request.
public enum ReplayDecision: Sendable {
    /// A recorded interaction answers.
    case matched(ReplayMatch)
    /// Nothing answers; the near miss explains why and carries the 404 to send.
    case unmatched(NearMiss)

    /// The response to send: the recorded one, or the unmatched 404. `nil` when the match is a transport
    /// failure, which the fault layer reproduces instead of answering.
    public var response: HTTPResponse? {
        switch self {
        case .matched(let match):
            if case .response(let response) = match.reply { return response }
            return nil
        case .unmatched(let nearMiss):
            return nearMiss.response
        }
    }

    /// The interaction that answered, or `nil` when unmatched.
    public var interaction: InteractionReference? {
        guard case .matched(let match) = self else { return nil }
        return match.interaction
    }
}

/// A matched interaction and what to replay.
public struct ReplayMatch: Sendable {
    /// What the interaction replays.
    public enum Reply: Sendable {
        /// Send this response. JSON bodies were serialized once when the engine was built; `Content-Length`
        /// is set and recorded transfer and content encodings are removed.
        case response(HTTPResponse)
        /// Reproduce this recorded transport failure (refused, reset, timeout).
        case failure(TransportFailure)
    }

    /// One interaction's reference and prepared reply, built once per engine so that a match hands out a
    /// single object instead of copying strings and buffers.
    final class Prepared: Sendable {
        let interaction: InteractionReference
        let reply: Reply

        init(interaction: InteractionReference, reply: Reply) {
            self.interaction = interaction
            self.reply = reply
        }
    }

    private let prepared: Prepared
    /// Whether this is a replay beyond the recorded sequence (the `repeat` or `cycle` policy at work).
    public let isRepeat: Bool

    /// Creates a match.
    public init(interaction: InteractionReference, reply: Reply, isRepeat: Bool) {
        self.init(Prepared(interaction: interaction, reply: reply), isRepeat: isRepeat)
    }

    init(_ prepared: Prepared, isRepeat: Bool) {
        self.prepared = prepared
        self.isRepeat = isRepeat
    }

    /// The interaction that answered.
    public var interaction: InteractionReference { prepared.interaction }
    /// The response or failure to replay.
    public var reply: Reply { prepared.reply }
}

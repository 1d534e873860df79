/// What ``ReplayEngine/answer(_:)`` decided for one request.
package enum ReplayDecision: Sendable {
    /// A recorded interaction answers.
    case matched(ReplayMatch)
    /// Nothing answers; the near miss explains why and carries the 404 to send.
    case unmatched(NearMiss)

    /// The response to send: the recorded one, or the unmatched 404. `nil` when the match is a transport
    /// failure, which the fault layer reproduces instead of answering.
    package var response: HTTPResponse? {
        switch self {
        case .matched(let match):
            if case .response(let response) = match.reply { return response }
            return nil
        case .unmatched(let nearMiss):
            return nearMiss.response
        }
    }

    /// The interaction that answered, or `nil` when unmatched.
    package var interaction: InteractionReference? {
        guard case .matched(let match) = self else { return nil }
        return match.interaction
    }
}

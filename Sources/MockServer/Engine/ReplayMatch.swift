/// A matched interaction and what to replay.
package struct ReplayMatch: Sendable {
    /// What the interaction replays.
    package enum Reply: Sendable {
        /// Send this response. JSON bodies were serialized once when the engine was built; `Content-Length`
        /// is set and a recorded `Transfer-Encoding` removed (see ``RecordedResponse/replayResponse``).
        case response(HTTPResponse)
        /// Reproduce this recorded transport failure (refused, reset, timeout).
        case failure(TransportFailure)
        /// Send this stream, each part at its recorded offset.
        case stream(HTTPStream)
    }

    /// Where a match's interaction and reply come from: an engine's prepared cassette (no copy, one retain),
    /// or the values given to the package initializer.
    enum Source: Sendable {
        case prepared(PreparedCassette, member: Int)
        case given(Given)
    }

    /// The values of a match created with ``init(interaction:reply:isRepeat:)``, boxed so that a match stays small.
    final class Given: Sendable {
        let interaction: InteractionReference
        let reply: Reply

        init(interaction: InteractionReference, reply: Reply) {
            self.interaction = interaction
            self.reply = reply
        }
    }

    let source: Source
    /// Whether this is a replay beyond the recorded sequence (the `repeat` or `cycle` policy at work).
    let isRepeat: Bool

    /// Creates a match.
    init(interaction: InteractionReference, reply: Reply, isRepeat: Bool) {
        source = .given(Given(interaction: interaction, reply: reply))
        self.isRepeat = isRepeat
    }

    init(_ cassette: PreparedCassette, member: Int, isRepeat: Bool) {
        source = .prepared(cassette, member: member)
        self.isRepeat = isRepeat
    }

    /// The interaction that answered.
    package var interaction: InteractionReference {
        switch source {
        case .prepared(let cassette, let member): cassette.reference(member)
        case .given(let given): given.interaction
        }
    }

    /// The response or failure to replay.
    var reply: Reply {
        switch source {
        case .prepared(let cassette, let member): cassette.replies[member]
        case .given(let given): given.reply
        }
    }

    /// The status of the response to send, or `nil` for a transport failure; without copying the response.
    var status: Int? {
        switch source {
        case .prepared(let cassette, let member): cassette.replies[member].status
        case .given(let given): given.reply.status
        }
    }
}

extension ReplayMatch.Reply {
    /// The response's status, or `nil` for a transport failure.
    var status: Int? {
        switch self {
        case .response(let response): response.status
        case .stream(let stream): stream.head.status
        case .failure: nil
        }
    }
}

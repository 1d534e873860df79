/// One request's answer, as it goes from the engine through a fault (if one fires) to the journal and the
/// wire: what answered it and the reply sent. Plain values: reading it calls back into nothing.
package struct ReplayAnswer: Sendable {
    /// The interaction that answered, or whose answer a fault altered, with its recorded status; `nil` when none did.
    let matched: MatchedInteraction?
    /// Whether ``interaction`` was served beyond its recorded sequence (the `repeat` or `cycle` policy at work).
    package let isRepeat: Bool
    /// The near miss and the fault, out of line: both are rare and large, and an answer is copied a few times
    /// on its way to the wire.
    private let unusual: Unusual?
    /// What the server does.
    let reply: HTTPReply
    /// The status the client sees; `nil` when the connection breaks before a status line (a replayed
    /// transport failure, or a fault that breaks it).
    package let status: Int?
    /// The recorded WebSocket conversation ``reply`` upgrades to, which the handler starts once it journaled the
    /// answer; `nil` for every other answer. Boxed, as the near miss and the fault are: it is rare and large.
    var conversation: PendingConversation? {
        get { conversationBox?.conversation }
        set { conversationBox = newValue.map(ConversationBox.init) }
    }
    private var conversationBox: ConversationBox?

    /// A recorded interaction's answer, with its recorded status and neither near miss nor fault: what nearly
    /// every request gets, so it touches neither optional.
    init(matched: MatchedInteraction, isRepeat: Bool, reply: HTTPReply) {
        self.matched = matched
        self.isRepeat = isRepeat
        unusual = nil
        self.reply = reply
        status = matched.status
    }

    /// Any answer: a fault's, an unmatched request's, or a plain one.
    init(matched: MatchedInteraction?, isRepeat: Bool, nearMiss: NearMiss?, fault: FaultDecision?, reply: HTTPReply, status: Int?) {
        self.matched = matched
        self.isRepeat = isRepeat
        unusual = nearMiss == nil && fault == nil ? nil : Unusual(nearMiss: nearMiss, fault: fault)
        self.reply = reply
        self.status = status
    }

    /// The answer of an unmatched request: its near miss and the 404 that carries it.
    init(unmatched nearMiss: NearMiss) {
        let response = nearMiss.response
        self.init(matched: nil, isRepeat: false, nearMiss: nearMiss, fault: nil, reply: .response(response), status: response.status)
    }

    /// Why no interaction answered (its ``NearMiss/response`` is the 404 sent); `nil` when one did, or when a
    /// fault answered without asking the cassettes.
    package var nearMiss: NearMiss? { unusual?.nearMiss }

    /// The fault that replaced or altered the answer, if one fired.
    var fault: FaultDecision? { unusual?.fault }

    /// Whether neither a near miss nor a fault is part of this answer: checked without copying either.
    var isPlain: Bool { unusual == nil }

    /// The interaction that answered, or whose answer a fault altered; `nil` when none did.
    package var interaction: InteractionReference? { matched?.reference }

    /// The response sent when the reply is an ordinary response (a recorded one, a fault's, or the unmatched
    /// 404); `nil` for a stream, a replayed transport failure or a fault acting on the wire.
    package var response: HTTPResponse? {
        guard case .response(let response) = reply.action else { return nil }
        return response
    }
}

/// A ``ReplayAnswer``'s conversation, out of line.
private final class ConversationBox: Sendable {
    let conversation: PendingConversation

    init(_ conversation: PendingConversation) {
        self.conversation = conversation
    }
}

/// The parts of a ``ReplayAnswer`` a plain match does not have.
private final class Unusual: Sendable {
    let nearMiss: NearMiss?
    let fault: FaultDecision?

    init(nearMiss: NearMiss?, fault: FaultDecision?) {
        self.nearMiss = nearMiss
        self.fault = fault
    }
}

/// One request's answer, as it goes from the engine through a fault (if one fires) to the journal and the
/// wire: what answered it and the reply sent. Plain values: reading it calls back into nothing.
package struct ReplayAnswer: Sendable {
    /// The interaction that answered, or whose answer a fault altered; `nil` when none did.
    package let interaction: InteractionReference?
    /// Whether ``interaction`` was served beyond its recorded sequence (the `repeat` or `cycle` policy at work).
    package let isRepeat: Bool
    /// Why no interaction answered (its ``NearMiss/response`` is the 404 sent); `nil` when one did, or when a
    /// fault answered without asking the cassettes.
    package let nearMiss: NearMiss?
    /// The fault that replaced or altered the answer, if one fired.
    let fault: FaultDecision?
    /// What the server does.
    let reply: HTTPReply
    /// The status the client sees; `nil` when the connection breaks before a status line (a replayed
    /// transport failure, or a fault that breaks it).
    package let status: Int?

    init(interaction: InteractionReference? = nil, isRepeat: Bool = false, nearMiss: NearMiss? = nil, fault: FaultDecision? = nil,
         reply: HTTPReply, status: Int?) {
        self.interaction = interaction
        self.isRepeat = isRepeat
        self.nearMiss = nearMiss
        self.fault = fault
        self.reply = reply
        self.status = status
    }

    /// The answer of an unmatched request: its near miss and the 404 that carries it.
    init(unmatched nearMiss: NearMiss) {
        let response = nearMiss.response
        self.init(nearMiss: nearMiss, reply: .response(response), status: response.status)
    }

    /// The response sent when the reply is an ordinary response (a recorded one, a fault's, or the unmatched
    /// 404); `nil` for a stream, a replayed transport failure or a fault acting on the wire.
    package var response: HTTPResponse? {
        guard case .response(let response) = reply.action else { return nil }
        return response
    }
}

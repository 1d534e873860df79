import Foundation

extension ReplayEngine {
    /// The answer of an upgrade request matched by a recorded conversation: the recorded `101` (its headers in
    /// their order, `Sec-WebSocket-Accept` computed for this request's key) with the conversation to play, or the
    /// handshake's refusal (400, 426) when the request is no valid upgrade, as a server that speaks WebSocket
    /// answers a plain `GET` to its socket.
    static func conversationAnswer(
        _ request: HTTPRequest, conversation: RecordedWebSocket, cassette: PreparedCassette, member: Int, isRepeat: Bool,
        timing: StreamTiming
    ) -> ReplayAnswer {
        let matched = cassette.matches[member]
        let response: HTTPResponse
        do {
            response = try handshakeResponse(to: request, recorded: conversation.response.headers)
        } catch {
            let refusal = error.response
            return ReplayAnswer(matched: matched, isRepeat: isRepeat, nearMiss: nil, fault: nil, reply: .response(refusal), status: refusal.status)
        }
        let session = WebSocketSession(response: response)
        var answer = ReplayAnswer(matched: matched, isRepeat: isRepeat, reply: .webSocket(session))
        answer.conversation = PendingConversation(
            session: session,
            player: ConversationPlayer(
                conversation: conversation, reference: matched.reference, request: request, rules: cassette.rules, timing: timing,
                transcript: WebSocketTranscript()))
        return answer
    }

    /// The recorded upgrade answer for `request`: the recorded headers in order with `Sec-WebSocket-Accept` for
    /// this request's key (appended when the recording has none). A hand-written answer without `Upgrade` and
    /// `Connection` gets the standard handshake's headers first, then its own. Throws the handshake's refusal: not an
    /// upgrade, another WebSocket version, a malformed key, or a recorded subprotocol the client did not offer.
    static func handshakeResponse(to request: HTTPRequest, recorded: HTTPHeaders) throws(RequestRejection) -> HTTPResponse {
        let subprotocol = recorded["Sec-WebSocket-Protocol"]
        let standard = try WebSocketHandshake.response(to: request, subprotocol: subprotocol)
        guard recorded["Upgrade"] != nil, recorded["Connection"] != nil else {
            var headers = standard.headers
            for line in recorded.lines where standard.headers[line.name] == nil { headers.add(name: line.name, value: line.value) }
            return HTTPResponse(status: 101, headers: headers)
        }
        var headers = recorded
        headers.set(name: "Sec-WebSocket-Accept", value: standard.headers["Sec-WebSocket-Accept"] ?? "")
        return HTTPResponse(status: 101, headers: headers)
    }
}

extension PreparedReply {
    /// Whether it plays a WebSocket conversation.
    var isWebSocket: Bool {
        if case .webSocket = self { true } else { false }
    }
}

import Foundation

/// Plays one recorded WebSocket conversation to one client: the server's messages in order, each when it is
/// due, and each client message the recording holds awaited and compared before what followed it is sent.
///
/// Timing: a server message is sent its recorded distance after the step before it (the upgrade, the server's
/// previous message, or the arrival of the client message it answered), scaled by the stream timing, so a
/// client slower or faster than the recorded one does not shift what follows. A client message is compared as
/// a request body is (JSON by value under the cassette's rules, placeholders matching anything, other text and
/// binary by bytes); one the recording does not hold there ends the conversation with close code 1008 (policy
/// violation) and its difference as the reason, and the whole near miss is reported as an unmatched request's.
struct ConversationPlayer: Sendable {
    let conversation: RecordedWebSocket
    /// The interaction that holds it, named in near misses.
    let reference: InteractionReference
    /// The upgrade request as received, named in near misses.
    let request: HTTPRequest
    /// The rules client messages are compared under: its cassette's.
    let rules: PreparedRules
    let timing: StreamTiming
    /// What crossed the socket, for the journal.
    let transcript: WebSocketTranscript
    /// A fault that breaks the conversation, when one fired for its upgrade.
    var fault: WebSocketFault?

    /// Plays to `session` until the recorded ending, or until the client leaves or the server stops; a client
    /// message the recording does not hold goes to `report` as a near miss.
    func play(on session: WebSocketSession, report: @Sendable (NearMiss) -> Void) async {
        var events = session.events.makeAsyncIterator()
        let clock = ContinuousClock()
        var stepStart = clock.now
        var stepOffset = 0
        var serverMessages = 0
        for (position, message) in conversation.messages.enumerated() {
            switch message.from {
            case .server:
                if let fault, fault.strikes(before: serverMessages) {
                    await strike(fault, on: session, after: serverMessages, events: &events)
                    return
                }
                var delay = scaled(message.offsetMs - stepOffset)
                if let extra = fault?.extraDelay(before: serverMessages) { delay += extra }
                guard await wait(until: stepStart + delay, on: clock, for: session) else { return await drain(&events) }
                // Noted before it is sent, so that a client that read it finds it in the journal.
                transcript.append(from: .server, message.content)
                session.send(message.content.wireMessage)
                serverMessages += 1
                (stepStart, stepOffset) = (clock.now, message.offsetMs)
            case .client:
                guard let received = await nextMessage(&events) else { return }
                let content = RecordedWebSocket.Content(received)
                transcript.append(from: .client, content)
                let differences = Self.differences(recorded: message.content, received: content, position: position, rules: rules)
                guard differences.isEmpty else {
                    refuse(differences, on: session, report: report)
                    return
                }
                (stepStart, stepOffset) = (clock.now, message.offsetMs)
            }
        }
        if let fault, fault.strikes(before: serverMessages) || fault.strikesAtEnd {
            await strike(fault, on: session, after: serverMessages, events: &events)
            return
        }
        switch conversation.ending {
        case .closed(.server, let code, let reason, let offsetMs):
            guard await wait(until: stepStart + scaled(offsetMs - stepOffset), on: clock, for: session) else { return await drain(&events) }
            end(.closed(by: .server, code: code, reason: reason, offsetMs: transcript.offsetMs))
            session.close(WebSocketClose(code: code.map(UInt16.init), reason: reason))
            _ = await nextMessage(&events)
        case .dropped(.server, let offsetMs):
            guard await wait(until: stepStart + scaled(offsetMs - stepOffset), on: clock, for: session) else { return await drain(&events) }
            end(.dropped(by: .server, offsetMs: transcript.offsetMs))
            session.drop(reset: false)
        case .closed(.client, _, _, _), .dropped(.client, _), .unfinished:
            // The client ended it, or it was open when the recording stopped: wait for the client, refusing any
            // message the recording does not hold.
            if let received = await nextMessage(&events) {
                let content = RecordedWebSocket.Content(received)
                transcript.append(from: .client, content)
                refuse(
                    [RequestDifference("message \(conversation.messages.count)", recorded: nil, received: Self.shown(content))],
                    on: session, report: report)
            }
        }
    }

    /// The next message from the client; `nil` (with the ending noted) once it closed or left.
    private func nextMessage(_ events: inout AsyncStream<WebSocketEvent>.Iterator) async -> WebSocketMessage? {
        switch await events.next() {
        case .message(let message)?:
            return message
        case .closed(let close)?:
            end(.closed(by: .client, code: close.code.map(Int.init), reason: close.reason, offsetMs: transcript.offsetMs))
        case .refused(let close)?:
            end(.closed(by: .server, code: close.code.map(Int.init), reason: close.reason, offsetMs: transcript.offsetMs))
        case .ended?, nil:
            end(.dropped(by: .client, offsetMs: transcript.offsetMs))
        }
        return nil
    }

    private func end(_ ending: RecordedWebSocket.Ending, note: String? = nil) {
        transcript.end(ending, note: note)
    }

    /// Carries out `fault` after `count` server messages, then waits for the client to go.
    private func strike(
        _ fault: WebSocketFault, on session: WebSocketSession, after count: Int, events: inout AsyncStream<WebSocketEvent>.Iterator
    ) async {
        let note = "fault \(fault) after \(count) server message\(count == 1 ? "" : "s")"
        switch fault.action {
        case .drop:
            end(.dropped(by: .server, offsetMs: transcript.offsetMs), note: note)
            session.drop(reset: false)
        case .close(let code):
            let close = WebSocketClose(code: code, reason: "MockServer fault: close \(code)")
            end(.closed(by: .server, code: Int(code), reason: close.reason, offsetMs: transcript.offsetMs), note: note)
            session.close(close)
        case .malformed:
            end(.dropped(by: .server, offsetMs: transcript.offsetMs), note: note)
            // A frame with a reserved opcode (0x3) and a reserved bit set: no client may accept it.
            session.sendRaw(WebSocketFrameWriter.encode(fin: true, reservedBits: 0x4, opcode: 0x3, payload: Data("MockServer".utf8), maskingKey: nil))
            session.drop(reset: false)
        case .stall:
            transcript.end(.unfinished, note: note)
        case .delay:
            return
        }
        await drain(&events)
    }

    /// Sleeps until `deadline`; `false` as soon as the socket ended (the client left, the server stopped) or the
    /// task was cancelled. A recorded gap may be minutes long, so the sleep looks at the socket every 250 ms rather
    /// than outliving it.
    private func wait(until deadline: ContinuousClock.Instant, on clock: ContinuousClock, for session: WebSocketSession) async -> Bool {
        while deadline > clock.now {
            guard !session.hasEnded else { return false }
            do { try await clock.sleep(until: min(deadline, clock.now + .milliseconds(250))) } catch { return false }
        }
        return !Task.isCancelled
    }

    /// Reads what is left of the client's events, so that the transcript notes how the socket ended.
    private func drain(_ events: inout AsyncStream<WebSocketEvent>.Iterator) async {
        while await nextMessage(&events) != nil {}
    }

    /// `milliseconds` of recorded time, as the stream timing plays it.
    private func scaled(_ milliseconds: Int) -> Duration {
        .milliseconds(max(0, milliseconds)) * timing.scale
    }

    /// Reports the near miss, then closes with 1008 and its first difference as the reason.
    private func refuse(_ differences: [RequestDifference], on session: WebSocketSession, report: @Sendable (NearMiss) -> Void) {
        let nearMiss = NearMiss(method: request.method, target: request.target, closest: reference, differences: differences)
        report(nearMiss)
        let reason = Self.closeReason(differences.first?.description ?? "unrecorded message")
        end(.closed(by: .server, code: 1008, reason: reason, offsetMs: transcript.offsetMs), note: nearMiss.description)
        session.close(WebSocketClose(code: 1008, reason: reason))
    }

    /// `sentence` cut to fit a close frame's 123 bytes, at a character boundary, with `…` when cut.
    static func closeReason(_ sentence: String) -> String {
        guard sentence.utf8.count > WebSocketClose.maxReasonBytes else { return sentence }
        var cut = ""
        for character in sentence {
            guard cut.utf8.count + character.utf8.count <= WebSocketClose.maxReasonBytes - 3 else { break }
            cut.append(character)
        }
        return cut + "…"
    }

    /// How a received client message differs from the recorded one at `position`; empty when it matches.
    static func differences(
        recorded: RecordedWebSocket.Content, received: RecordedWebSocket.Content, position: Int, rules: PreparedRules
    ) -> [RequestDifference] {
        let location = "message \(position)"
        guard recorded.isText == received.isText else {
            return [RequestDifference(location, recorded: recorded.kindName, received: received.kindName, weight: 4)]
        }
        // Compared as a request body is: JSON by value under the rules, anything else by bytes.
        let type = recorded.looksLikeJSON ? "application/json" : "application/octet-stream"
        let headers: HTTPHeaders = ["Content-Type": type]
        let recordedRequest = RecordedRequest(method: "POST", target: "/", headers: headers, body: RecordedBody(recorded.data, contentType: type))
        let differences = RequestComparison.differences(
            recorded: RequestParts(recorded: recordedRequest),
            received: RequestParts(received: HTTPRequest(method: "POST", target: "/", headers: headers, body: received.data)), rules: rules)
        return differences.map { difference in
            let place = difference.location == "body" ? location : "\(location) \(difference.location)"
            return RequestDifference(place, recorded: difference.recorded, received: difference.received, weight: difference.weight)
        }
    }

    /// A message as a near miss shows it.
    private static func shown(_ content: RecordedWebSocket.Content) -> String {
        switch content {
        case .text(let text): JSONWriter.quoted(text.count > 80 ? String(text.prefix(80)) + "…" : text)
        case .binary(let bytes): "\(bytes.count) binary bytes"
        }
    }
}

/// A conversation the engine chose, not yet playing: the handler starts it once the fault plan had its say and
/// the journal its entry.
struct PendingConversation: Sendable {
    let session: WebSocketSession
    var player: ConversationPlayer

    /// Plays it off the event loop; near misses go to `report`.
    func start(report: @escaping @Sendable (NearMiss) -> Void) {
        let (session, player) = (session, player)
        ServerTaskExecutor.task { await player.play(on: session, report: report) }
    }
}

extension RecordedWebSocket.Content {
    /// The message as the wire sends it.
    var wireMessage: WebSocketMessage {
        switch self {
        case .text(let text): .text(text)
        case .binary(let bytes): .binary(bytes)
        }
    }

    /// A message as received.
    init(_ message: WebSocketMessage) {
        switch message {
        case .text(let text): self = .text(text)
        case .binary(let bytes): self = .binary(bytes)
        }
    }

    var isText: Bool {
        if case .text = self { true } else { false }
    }

    /// `text` or `binary`.
    var kindName: String { isText ? "text" : "binary" }

    /// Whether it is text that starts like a JSON object or array.
    var looksLikeJSON: Bool {
        guard case .text(let text) = self else { return false }
        let first = text.utf8.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }
}

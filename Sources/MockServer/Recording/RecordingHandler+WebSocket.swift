import Foundation

extension RecordingHandler {
    /// Where the upstream's WebSocket is: an `http://` upstream with a numeric address or `localhost`, spoken to
    /// as `ws://` on the same host and port, the base path before the target.
    struct WebSocketEndpoint: Sendable {
        let host: String
        let port: Int
        let path: String
    }

    /// The handshake's own request headers, which the upstream's client writes itself for its own key.
    private static let handshakeHeaders: Set<String> = [
        "host", "upgrade", "connection", "sec-websocket-key", "sec-websocket-version", "sec-websocket-extensions",
        "sec-websocket-protocol",
    ]

    /// Relays the upgrade `request` to the upstream and answers `responder` as the upstream did: its refusal as
    /// a plain exchange (recorded), or its `101` (headers in order, `Sec-WebSocket-Accept` for the client's key)
    /// and then the conversation, relayed both ways by a ``WebSocketRelay`` until either side ends it, journaled
    /// live and recorded whole once it ended. The request goes with its headers as an exchange's do (cookies,
    /// `Authorization`, `Origin`, subprotocols offered), the handshake's own aside. A `wss://` upstream (an
    /// `https` one) or one named by a host name cannot be relayed yet: 502, journaled as not recorded.
    func relayUpgrade(_ request: HTTPRequest, routed: Bool, responder: HTTPResponder) async {
        let headers = ProxyHeaders.recorded(request.headers, upstream: client.upstream, routed: routed)
        let recordedAt = Date()
        let start = ContinuousClock.now
        // The client's key is one connection's: a cassette has no use for it, and a re-recording would differ by it.
        var recordedHeaders = headers
        recordedHeaders.remove(name: "Sec-WebSocket-Key")
        let recordedRequest = RecordedRequest(
            method: request.method, target: request.target, headers: recordedHeaders,
            body: RecordedBody(request.body, contentType: request.headers["Content-Type"]))
        let tape = records ? recording : nil
        func milliseconds() -> Int { Int((DurationSpelling.seconds(ContinuousClock.now - start) * 1000).rounded()) }

        // A malformed handshake is refused here, as the upstream would refuse it: its client sends a handshake of its own.
        do {
            _ = try WebSocketHandshake.response(to: request, subprotocol: nil)
        } catch {
            responder.send(.response(error.response))
            return
        }
        let endpoint: WebSocketEndpoint
        switch webSocketEndpoint(for: request.target) {
        case .success(let found):
            endpoint = found
        case .failure(let reason):
            let sentence = reason.sentence
            let failure = TransportFailure(kind: .refused, message: sentence)
            let body = CassetteJSON.sortedObject([
                "error": .string("websocket_not_relayed"), "message": .string(sentence), "upstream": .string(client.upstream.description),
            ])
            let answer = notRecorded(
                request, recordedRequest: recordedRequest, failure: failure, unreachable: true, recording: tape != nil,
                answer: HTTPResponse(status: 502, headers: ["Content-Type": "application/json"], body: body.serialized()),
                recordedAt: recordedAt, durationMs: milliseconds())
            responder.send(.response(answer))
            return
        }
        let forwarded = HTTPHeaders(ProxyHeaders.forwarded(headers).lines.filter { !Self.handshakeHeaders.contains($0.name.lowercased()) })
        let offered = request.headers.values(for: "Sec-WebSocket-Protocol")
            .flatMap { $0.split(separator: ",") }.map { $0.trimmingHTTPWhitespace() }.filter { !$0.isEmpty }
        let timeout = client.timeout
        let connected = await Self.onOwnThread { () -> Result<WebSocketClient, WebSocketClientError> in
            do throws(WebSocketClientError) {
                return .success(
                    try WebSocketClient(
                        host: endpoint.host, port: endpoint.port, path: endpoint.path, headers: forwarded, subprotocols: offered, timeout: timeout))
            } catch {
                return .failure(error)
            }
        }
        let upstream: WebSocketClient
        switch connected {
        case .success(let client):
            upstream = client
        case .failure(.rejected(let status, let fields, let body)):
            // The upstream said no: an exchange like any other.
            let response = HTTPResponse(
                status: status, headers: ProxyHeaders.response(fields.lines.map { ($0.name, $0.value) }, bodyCount: body.count, decoded: false),
                body: body)
            var interaction = Interaction(
                request: recordedRequest, outcome: .response(RecordedResponse(response)), recordedAt: recordedAt, durationMs: milliseconds())
            options.redaction.redact(&interaction)
            let recorded = tape?.append(interaction)
            report(
                request, interaction: interaction, recorded: recorded, status: status, bodyBytes: body.count, brokenStream: nil, at: recordedAt)
            responder.send(.response(response))
            return
        case .failure(let error):
            let timedOut: Bool
            if case .timedOut = error { timedOut = true } else { timedOut = false }
            let failure = TransportFailure(kind: timedOut ? .timeout : .refused, message: error.description)
            let answer = notRecorded(
                request, recordedRequest: recordedRequest, failure: failure, unreachable: !timedOut, recording: tape != nil,
                recordedAt: recordedAt, durationMs: milliseconds())
            responder.send(.response(answer))
            return
        }
        let durationMs = milliseconds()
        let upgraded: HTTPResponse
        do {
            upgraded = try ReplayEngine.handshakeResponse(to: request, recorded: upstream.response.headers)
        } catch {
            upstream.closeSocket()
            responder.send(.response(error.response))
            return
        }
        let session = WebSocketSession(response: upgraded)
        let transcript = WebSocketTranscript()
        // Journaled before the 101 goes, so that a client that has it finds the entry, which shows the
        // conversation as it goes on.
        var outcome: JournalOutcome = tape != nil ? .recorded(nil, status: 101) : .passedThrough(status: 101)
        outcome.webSocket = transcript
        let entry = journal.append(
            request, outcome: outcome, at: recordedAt, timing: JournalTiming(duration: .milliseconds(durationMs), delay: .zero),
            sent: .reply(.webSocket(session)), sentBytes: 0)
        observer?(entry)
        let messages: [RecordedWebSocket.Message]
        let ending: RecordedWebSocket.Ending
        if responder.send(.webSocket(session)) {
            let relay = WebSocketRelay(session: session, upstream: upstream, transcript: transcript) { [streamsCut] in
                streamsCut.withLock { $0 }
            }
            (messages, ending) = await relay.run()
        } else {
            // The client left before the 101: the upstream is told so.
            (messages, ending) = ([], .dropped(by: .client, offsetMs: 0))
            transcript.end(ending)
            try? upstream.close(code: 1001, reason: "The client left.")
            upstream.closeSocket()
        }
        let conversation = RecordedWebSocket(response: RecordedResponse(upstream.response), messages: messages, ending: ending)
        var interaction = Interaction(request: recordedRequest, outcome: .webSocket(conversation), recordedAt: recordedAt, durationMs: durationMs)
        options.redaction.redact(&interaction)
        let recorded = tape?.append(interaction)
        options.onExchange?(
            ForwardedExchange(interaction: interaction, index: recorded?.index, status: 101, bodyBytes: 0, saveError: recorded?.saveError))
    }

    /// The upstream's WebSocket for `target`, or the sentence saying why it cannot be relayed.
    func webSocketEndpoint(for target: String) -> Result<WebSocketEndpoint, WebSocketNotRelayed> {
        let url = client.upstream.url
        guard url.scheme?.lowercased() == "http" else {
            return .failure(
                WebSocketNotRelayed(
                    "The upstream \(client.upstream) is https, and a WebSocket cannot be captured from a wss:// upstream yet (no TLS); nothing was recorded for this request."
                ))
        }
        let host = url.host ?? ""
        let bare = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        guard SocketAddress(host: bare, port: 80) != nil else {
            return .failure(
                WebSocketNotRelayed(
                    "The upstream \(client.upstream) is named by a host name, and a WebSocket can be captured only from a numeric address or localhost yet; nothing was recorded for this request."
                ))
        }
        let base = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? ""
        return .success(WebSocketEndpoint(host: bare, port: url.port ?? 80, path: base + target))
    }

    /// `work`'s result, run on a thread of its own: it blocks.
    private static func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: work()) }.start()
        }
    }
}

/// Why an upgrade cannot be relayed to the upstream: one sentence.
struct WebSocketNotRelayed: Error, Sendable {
    let sentence: String
    init(_ sentence: String) { self.sentence = sentence }
}

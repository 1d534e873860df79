import Foundation
import Locking

/// The ``HTTPHandler`` behind a ``ReplayServer`` in a forwarding mode: replays what matches (in
/// replay-or-record mode), forwards the rest to the upstream, records each exchange and journals it.
/// Forwarding is deferred to a task, so the event loop never waits on the upstream.
final class RecordingHandler: HTTPHandler {
    let mode: ReplayServer.Mode
    let options: RecordingOptions
    let client: UpstreamClient
    let inFlight = InFlightExchanges()
    private let engine: ReplayEngine
    private let journal: Journal
    private let observer: (@Sendable (JournalEntry) -> Void)?
    private let tape = Lock<CassetteTape?>(nil)

    init(mode: ReplayServer.Mode, options: RecordingOptions, engine: ReplayEngine, journal: Journal,
         observer: (@Sendable (JournalEntry) -> Void)?) {
        self.mode = mode
        self.options = options
        self.engine = engine
        self.journal = journal
        self.observer = observer
        client = UpstreamClient(upstream: options.upstream, timeout: options.timeout)
    }

    /// Opens the cassette to record into (once), and adds an existing cassette file to what is replayed.
    func prepare() throws(MockServerError) {
        guard mode.records else { return }
        try tape.withLock { tape throws(MockServerError) in
            guard tape == nil else { return }
            let (opened, existing) = try CassetteTape.open(options, mode: mode)
            if let existing { engine.include(existing) }
            tape = opened
        }
    }

    /// The tape, once ``prepare()`` opened it.
    var recording: CassetteTape? {
        tape.withLock { $0 }
    }

    func reply(to request: HTTPRequest, context: HTTPRequestContext) -> HTTPReply {
        if mode == .replayOrRecord {
            let decision = engine.answer(request)
            if case .matched = decision {
                let entry = journal.record(request, decision: decision)
                observer?(entry)
                return ReplayHandler.normalAnswer(decision, streamTiming: .recorded).reply
            }
        }
        guard request.target.hasPrefix("/"), let url = client.upstream.url(for: request.target) else {
            return Self.refusal(400, "This is a reverse proxy: send requests to it as to the upstream, with a path such as /users; \(request.target) cannot be forwarded.")
        }
        guard inFlight.begin() else {
            return Self.refusal(503, "The recording server is stopping; the request was not forwarded.")
        }
        // Not cancelled when the client leaves: the upstream's answer is still recorded. Off the cooperative
        // pool, which the tests talking to this server may be holding.
        return .deferred { responder in
            ServerTaskExecutor.task {
                let reply = await self.exchange(request, to: url, responder: responder)
                responder.send(reply)
                self.inFlight.end()
            }
        }
    }

    /// Forwards `request` to `url`, records the exchange, and returns what the client gets. A
    /// `text/event-stream` answer reaches the client through `responder` as it arrives, and is recorded as
    /// events with their offsets.
    private func exchange(_ request: HTTPRequest, to url: URL, responder: HTTPResponder) async -> HTTPReply {
        let headers = ProxyHeaders.recorded(request.headers, upstream: client.upstream)
        let recordedAt = Date()
        let start = ContinuousClock.now
        let relay = Lock<(live: LiveStream, capture: StreamCapture)?>(nil)
        let outcome = await client.send(request, to: url, headers: ProxyHeaders.forwarded(headers)) { status, fields in
            let responseHeaders = ProxyHeaders.response(fields, bodyIsEmpty: false)
            guard MediaType(responseHeaders["Content-Type"]).isEventStream else { return nil }
            let live = LiveStream(head: HTTPResponse(status: status, headers: responseHeaders))
            let capture = StreamCapture()
            relay.withLock { $0 = (live, capture) }
            responder.send(.live(live))
            return { bytes in
                capture.add(bytes)
                live.send(bytes)
            }
        }
        let elapsed = ContinuousClock.now - start

        var response: HTTPResponse
        let recordedOutcome: Interaction.Outcome
        let streamed = relay.withLock { $0 }
        switch (outcome, streamed) {
        case (.response(let upstreamResponse), let (live, capture)?):
            live.finish(.complete)
            let stream = capture.finish()
            response = upstreamResponse
            response.body = stream.data
            recordedOutcome = .response(RecordedResponse(status: upstreamResponse.status, headers: upstreamResponse.headers,
                                                         body: .stream(stream)))
        case (.failure, let (live, capture)?):
            // The stream broke after it started: the client sees it cut; what arrived is recorded.
            live.finish(.cut)
            let stream = capture.finish()
            response = HTTPResponse(status: live.head.status, headers: live.head.headers, body: stream.data)
            recordedOutcome = .response(RecordedResponse(status: live.head.status, headers: live.head.headers, body: .stream(stream)))
        case (.response(let upstreamResponse), nil):
            response = upstreamResponse
            recordedOutcome = .response(RecordedResponse(upstreamResponse))
        case (.failure(let failure), nil):
            response = failure.badGatewayResponse(upstream: client.upstream, timeout: client.timeout)
            recordedOutcome = .failure(failure)
        }
        let recordedRequest = RecordedRequest(method: request.method, target: request.target, headers: headers,
                                              body: RecordedBody(request.body, contentType: request.headers["Content-Type"]))
        var interaction = Interaction(request: recordedRequest, outcome: recordedOutcome, recordedAt: recordedAt,
                                      durationMs: Int((DurationSpelling.seconds(elapsed) * 1000).rounded()))
        options.redaction.redact(&interaction)

        var index: Int?
        var saveError: MockServerError?
        let journalOutcome: JournalOutcome
        if mode.records, let tape = recording {
            let (position, error) = tape.append(interaction)
            (index, saveError) = (position, error)
            let reference = InteractionReference(cassette: tape.cassette.name, cassetteIndex: -1, index: position,
                                                 method: interaction.request.method, target: interaction.request.target)
            journalOutcome = .recorded(reference, status: response.status)
        } else {
            journalOutcome = .passedThrough(status: response.status)
        }
        let entry = journal.record(request, outcome: journalOutcome, at: recordedAt)
        observer?(entry)
        options.onExchange?(ForwardedExchange(interaction: interaction, index: index, status: response.status,
                                              bodyBytes: request.method == "HEAD" ? 0 : response.body.count, saveError: saveError))
        return .response(response)
    }

    /// An answer for a request that is not forwarded: `status` with a JSON body holding `message`.
    private static func refusal(_ status: Int, _ message: String) -> HTTPReply {
        .response(status: status, headers: ["Content-Type": "application/json", "Connection": "close"],
                  body: CassetteJSON.object(["error": .string("not_forwarded"), "message": .string(message)]).serialized())
    }
}

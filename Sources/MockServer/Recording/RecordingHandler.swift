import Foundation
import ServiceReplayShared

/// The ``HTTPHandler`` behind a ``CassetteServer`` in a forwarding mode: replays what matches (in
/// replay-or-record mode), forwards the rest to the upstream, records each exchange and journals it.
/// Forwarding is deferred to a task, so the event loop never waits on the upstream.
final class RecordingHandler: HTTPHandler {
    /// Whether exchanges are recorded (record and replay-or-record modes; not pass-through).
    let records: Bool
    /// Whether what the engine holds is replayed before anything is forwarded (replay-or-record mode).
    let replaysFirst: Bool
    let options: RecordingOptions
    let client: UpstreamForwarder
    let inFlight = InFlightExchanges()
    /// The engine replaying in replay-or-record mode: the server's, until ``prepare()`` opens a cassette file
    /// to append to and swaps in one that replays it too (see ``ReplayEngine/adding(_:)``).
    private let replaying: Lock<ReplayEngine>
    let journal: Journal
    let observer: (@Sendable (JournalEntry) -> Void)?
    private let tape = Lock<CassetteTape?>(nil)
    /// Set by ``cutStreams()``.
    let streamsCut = Lock(false)
    /// The requests forwarded but not recorded, `nil` while there are none.
    private let unrecorded = Lock<UnrecordedRequests?>(nil)

    init(
        records: Bool, replaysFirst: Bool, options: RecordingOptions, engine: ReplayEngine, journal: Journal,
        observer: (@Sendable (JournalEntry) -> Void)?
    ) {
        self.records = records
        self.replaysFirst = replaysFirst
        self.options = options
        replaying = Lock(engine)
        self.journal = journal
        self.observer = observer
        client = UpstreamForwarder(upstream: options.upstream, timeout: options.timeout)
    }

    /// Opens the cassette to record into (once); an existing cassette file is then replayed after the server's cassettes.
    func prepare() throws(MockServerError) {
        guard records else { return }
        try tape.withLock { tape throws(MockServerError) in
            guard tape == nil else { return }
            let (opened, existing) = try CassetteTape.open(options, appending: replaysFirst)
            if let existing {
                let loaded = LoadedCassette(existing)
                replaying.withLock { $0 = $0.adding(loaded) }
            }
            tape = opened
        }
    }

    /// The engine replaying now (see ``replaying``).
    var engine: ReplayEngine {
        replaying.withLock { $0 }
    }

    /// Adds a hand-written interaction to the engine replaying, under the lock the swap takes, so that an
    /// addition is never lost to it.
    func add(_ interaction: Interaction) {
        replaying.withLock { $0.add(interaction) }
    }

    /// The tape, once ``prepare()`` opened it.
    var recording: CassetteTape? {
        tape.withLock { $0 }
    }

    /// The requests forwarded but not recorded, because the upstream could not be reached or timed out; `nil`
    /// when there were none.
    var unrecordedRequests: UnrecordedRequests? {
        unrecorded.withLock { $0 }
    }

    func reply(to received: HTTPRequest, context: HTTPRequestContext) -> HTTPReply {
        let start = ContinuousClock.now
        let request = received.restoringRoutedHost()
        if replaysFirst {
            let answer = engine.answer(request, headFromGET: false)
            if answer.interaction != nil {
                journal.record(request, answer: answer, started: start, observer: observer)
                answer.conversation?.start { _ in }
                return answer.reply
            }
        }
        guard request.target.hasPrefix("/"), let url = client.upstream.url(for: request.target) else {
            return Self.refusal(
                400, "This is a reverse proxy: send requests to it as to the upstream, with a path such as /users; \(request.target) cannot be forwarded.")
        }
        guard inFlight.begin() else {
            return Self.refusal(503, "The recording server is stopping; the request was not forwarded.")
        }
        let routed = received.headers[HTTPRequest.routedHostHeader] != nil
        if WebSocketHandshake.isUpgrade(request) {
            // Relayed off the event loop, as an exchange is; in flight until the conversation ends.
            return .deferred { responder in
                ServerTaskExecutor.task {
                    await self.relayUpgrade(request, routed: routed, responder: responder)
                    self.inFlight.end()
                }
            }
        }
        // Not cancelled when the client leaves: the upstream's answer is still recorded (but a stream, which
        // may never end, is cut then: see StreamRelay). Off the cooperative
        // pool, which the tests talking to this server may be holding.
        return .deferred { responder in
            ServerTaskExecutor.task {
                // After a streamed answer the responder has answered already, and ignores this.
                let reply = await self.exchange(request, to: url, routed: routed, responder: responder)
                responder.send(reply)
                self.inFlight.end()
            }
        }
    }

    /// Forwards `request` to `url`, records the exchange, and returns what the client gets. A streamed answer
    /// (see ``StreamRelay``) reaches the client through `responder` as it arrives, and is recorded part by part;
    /// a body of declared length (see ``DeclaredBodyRelay``) reaches it as it arrives too, and is recorded whole.
    /// A `routed` request is recorded under the host the app meant (its `Host`, restored), not the upstream's.
    private func exchange(_ request: HTTPRequest, to url: URL, routed: Bool, responder: HTTPResponder) async -> HTTPReply {
        let headers = ProxyHeaders.recorded(request.headers, upstream: client.upstream, routed: routed)
        let recordedAt = Date()
        let start = ContinuousClock.now
        let recordedRequest = RecordedRequest(
            method: request.method, target: request.target, headers: headers,
            body: RecordedBody(request.body, contentType: request.headers["Content-Type"]))
        let tape = records ? recording : nil
        let relayed = Lock<StreamRelay?>(nil)
        let passedOn = Lock<DeclaredBodyRelay?>(nil)
        let outcome = await client.send(request, to: url, headers: headers) { [options] status, fields, cancel in
            guard request.method != "HEAD" else { return nil }
            if let relay = StreamRelay.start(
                status: status, fields: fields, request: recordedRequest, recordedAt: recordedAt,
                tape: tape, redaction: options.redaction, clientGoneGrace: options.clientGoneGrace,
                cancelUpstream: cancel)
            {
                relayed.withLock { $0 = relay }
                if !responder.send(.live(relay.live)) {
                    relay.live.cancel()  // the client left before the head: as when it leaves mid-stream
                }
                return .stream(relay.pass)
            }
            guard let relay = DeclaredBodyRelay.start(status: status, fields: fields) else { return nil }
            passedOn.withLock { $0 = relay }
            // A client that left before the head changes nothing: the answer is still recorded, as when held.
            if !responder.send(.live(relay.live)) { relay.live.cancel() }
            return .collect(showingEach: relay.pass)
        }
        let durationMs = Int((DurationSpelling.seconds(ContinuousClock.now - start) * 1000).rounded())
        if let relay = relayed.withLock({ $0 }) {
            finish(relay, outcome: outcome, request: request, recordedRequest: recordedRequest, recordedAt: recordedAt, durationMs: durationMs)
            return .close  // already answered by the relay
        }
        // Recorded as when the body was held; only what the client is sent differs once the head went out.
        let shown = passedOn.withLock { $0 }

        let response: HTTPResponse
        let recordedOutcome: Interaction.Outcome
        switch outcome {
        case .response(let upstreamResponse):
            response = upstreamResponse
            recordedOutcome = .response(RecordedResponse(upstreamResponse))
        case .failure(let failure) where failure.kind == .timeout:
            // The recorder's limit ran out, not the upstream: a recording that kept it would replay a timeout
            // the upstream never gave.
            let answer = notRecorded(
                request, recordedRequest: recordedRequest, failure: failure, unreachable: false,
                recording: tape != nil, shown: shown, recordedAt: recordedAt, durationMs: durationMs)
            shown?.finish(complete: false)
            return shown == nil ? .response(answer) : .close
        case .failure(let failure):
            response = failure.badGatewayResponse(upstream: client.upstream, timeout: client.timeout)
            recordedOutcome = .failure(failure)
        case .unreachable(let failure):
            // Nothing the upstream said: a recording that kept it would replay a dead upstream for good.
            let answer = notRecorded(
                request, recordedRequest: recordedRequest, failure: failure, unreachable: true,
                recording: tape != nil, shown: shown, recordedAt: recordedAt, durationMs: durationMs)
            shown?.finish(complete: false)
            return shown == nil ? .response(answer) : .close
        }
        var interaction = Interaction(request: recordedRequest, outcome: recordedOutcome, recordedAt: recordedAt, durationMs: durationMs)
        options.redaction.redact(&interaction)
        var recorded: (index: Int, saveError: MockServerError?)?
        if let tape {
            recorded = tape.append(interaction)
        }
        guard let shown else {
            report(
                request, interaction: interaction, recorded: recorded, status: response.status,
                bodyBytes: request.method == "HEAD" ? 0 : response.body.count, brokenStream: nil, at: recordedAt)
            return .response(response)
        }
        // The client has the upstream's head and the body so far: it gets the rest now, or the answer cut.
        report(
            request, interaction: interaction, recorded: recorded, status: shown.live.head.status,
            bodyBytes: shown.byteCount, brokenStream: nil, at: recordedAt)
        if case .response = outcome {
            shown.finish(complete: true)
        } else {
            shown.finish(complete: false)
        }
        return .close  // already answered by the relay
    }

    /// Ends a streamed answer: complete when the upstream ended it properly; otherwise cut for the client and
    /// recorded as unfinished when the recorder cut it (``cutStreams()`` stopped it, the upstream fell silent
    /// for the timeout, or the client left, which cancels the upstream exchange unless it ends within
    /// ``RecordingOptions/clientGoneGrace``), else as broken.
    private func finish(
        _ relay: StreamRelay, outcome: UpstreamOutcome<HTTPResponse>, request: HTTPRequest, recordedRequest: RecordedRequest,
        recordedAt: Date, durationMs: Int
    ) {
        var broken: TransportFailure?
        var ending = RecordedStream.Ending.complete
        if case .failure(let failure) = outcome {
            ending = streamsCut.withLock { $0 } || relay.clientLeft || failure.kind == .timeout ? .unfinished : .broken
            if ending == .broken { broken = failure }
        }
        let recorded = relay.end(ending, durationMs: durationMs)
        var interaction: Interaction
        if let recorded {
            interaction = recorded.interaction
        } else {
            // Passed through: what is reported is the exchange without its parts.
            interaction = Interaction(
                request: recordedRequest,
                outcome: .response(
                    RecordedResponse(
                        status: relay.live.head.status, headers: relay.live.head.headers,
                        body: .stream(RecordedStream([], ending: ending)))),
                recordedAt: recordedAt, durationMs: durationMs)
            options.redaction.redact(&interaction)
        }
        report(
            request, interaction: interaction, recorded: recorded.map { ($0.index, $0.saveError) }, status: relay.live.head.status,
            bodyBytes: relay.byteCount, brokenStream: broken, at: recordedAt)
    }

    /// Answers a request the upstream could not be reached for (`unreachable`), or that it sent nothing for within
    /// the timeout: a 502 or 504 saying so (and that nothing was recorded, when `recording`), journaled as
    /// ``JournalOutcome/Kind/upstreamUnreachable`` or ``JournalOutcome/Kind/upstreamTimedOut`` and counted in
    /// ``unrecordedRequests``; nothing goes on the tape. When the upstream's head already went to the client
    /// (`shown`), that status is journaled and reported instead, and the caller cuts the answer. An `answer` given
    /// replaces the 502 or 504.
    func notRecorded(
        _ request: HTTPRequest, recordedRequest: RecordedRequest, failure: TransportFailure, unreachable: Bool,
        recording: Bool, shown: DeclaredBodyRelay? = nil, answer: HTTPResponse? = nil, recordedAt: Date, durationMs: Int
    ) -> HTTPResponse {
        let response =
            answer
            ?? failure.badGatewayResponse(
                upstream: client.upstream, timeout: client.timeout, unreachable: unreachable,
                recording: recording)
        var interaction = Interaction(request: recordedRequest, outcome: .failure(failure), recordedAt: recordedAt, durationMs: durationMs)
        options.redaction.redact(&interaction)
        unrecorded.withLock { noted in
            if noted == nil { noted = UnrecordedRequests(first: "\(interaction.request.method) \(interaction.request.target)", failure: failure) }
            noted?.add()
        }
        let status = shown?.live.head.status ?? response.status
        let bodyBytes = shown?.byteCount ?? (request.method == "HEAD" ? 0 : response.body.count)
        let entry = journal.append(
            request, outcome: .notRecorded(failure, status: status), at: recordedAt,
            timing: JournalTiming(duration: .milliseconds(durationMs), delay: .zero),
            sent: shown == nil ? .reply(.response(response)) : .recorded(.failure(failure)),
            sentBytes: shown == nil ? response.body.count : 0)
        observer?(entry)
        options.onExchange?(
            ForwardedExchange(
                interaction: interaction, index: nil, status: status, bodyBytes: bodyBytes, saveError: nil, notRecorded: true))
        return response
    }

    /// Journals the exchange and tells the observers.
    func report(
        _ request: HTTPRequest, interaction: Interaction, recorded: (index: Int, saveError: MockServerError?)?,
        status: Int, bodyBytes: Int, brokenStream: TransportFailure?, at date: Date
    ) {
        let journalOutcome: JournalOutcome
        if let recorded, let tape = recording {
            let reference = InteractionReference(
                cassette: tape.cassette.name, cassetteIndex: -1, index: recorded.index,
                method: interaction.request.method, target: interaction.request.target)
            journalOutcome = .recorded(reference, status: status)
        } else {
            journalOutcome = .passedThrough(status: status)
        }
        let entry = journal.append(
            request, outcome: journalOutcome, at: date, timing: JournalTiming(duration: .milliseconds(interaction.durationMs ?? 0), delay: .zero),
            sent: .recorded(interaction.outcome), sentBytes: bodyBytes)
        observer?(entry)
        options.onExchange?(
            ForwardedExchange(
                interaction: interaction, index: recorded?.index, status: status, bodyBytes: bodyBytes,
                saveError: recorded?.saveError, brokenStream: brokenStream))
    }

    /// Cuts every stream being relayed, and any that starts from now on, recording each as unfinished: a
    /// stream may never end by itself, so stopping cannot wait for it.
    func cutStreams() {
        streamsCut.withLock { $0 = true }
        client.cancelStreams()
    }

    /// An answer for a request that is not forwarded: `status` with a JSON body holding `message`.
    static func refusal(_ status: Int, _ message: String) -> HTTPReply {
        .response(
            status: status, headers: ["Content-Type": "application/json", "Connection": "close"],
            body: CassetteJSON.object(["error": .string("not_forwarded"), "message": .string(message)]).serialized())
    }
}

import Foundation
import ServiceReplayShared

/// A MockServer replaying cassettes over real HTTP on loopback, with an optional fault plan and a journal
/// of every request.
///
/// ```swift
/// let server = try CassetteServer(cassettes: [try Cassette.load(from: url)])
/// let baseURL = try await server.start()      // http://127.0.0.1:PORT
/// ... send requests to baseURL ...
/// try server.journal.verify(.get("/users"), calledTimes: 1)
/// await server.stop()
/// ```
///
/// In tests, ``withMockServer(replaying:in:upstream:configuration:filePath:function:_:)`` does all of this in one line and
/// stops the server when the test's closure returns.
///
/// The same server records, when its ``Configuration/mode`` says so: in front of a real upstream it forwards
/// requests, gives the client the upstream's answer, and records each exchange (redacted): appended to a
/// capture log beside the cassette file before the client is answered, the file itself rewritten
/// atomically every few seconds and at ``stop()`` (see ``Cassette/load(from:)`` for what readers see
/// after a kill):
///
/// ```swift
/// let recording = RecordingOptions(upstream: try Upstream("https://api.github.com"), file: cassetteURL)
/// let server = try CassetteServer(cassettes: [], configuration: .init(mode: .replayOrRecord, recording: recording))
/// let baseURL = try await server.start()      // reads cassetteURL when it exists, replays what it matches
/// ... send requests to baseURL ...
/// await server.stop()                          // lets exchanges in flight finish, writes the file
/// try server.saveRecording()                   // throws if the file could not be written
/// ```
///
/// An exchange whose client leaves before the answer is still completed and recorded. Journal entries of
/// forwarded requests have the kind `recorded` (naming the interaction's index in the
/// recorded cassette, with `cassetteIndex` -1 as that cassette is not one of the engine's) or
/// `passedThrough`.
public final class CassetteServer: ControlledServer {
    /// The configuration the server was created with.
    public let configuration: Configuration
    /// The cassettes' interactions, matched and sequenced: in a recording mode, once ``start()`` has opened a
    /// cassette file to append to, the recording's engine, which replays that file too; in replay mode, the
    /// engine in force now (see ``replaceCassettes(with:)``).
    package var engine: ReplayEngine { recorder?.engine ?? handler.current.engine }
    /// Every request received, with what answered it.
    public let journal: Journal
    /// The fault plan in force now, or `nil` when none (the configuration's source gave no plan or one without
    /// rules, the plan was cleared with ``setFaultPlan(_:)``, or the mode forwards requests). A request being
    /// answered while ``setFaultPlan(_:)`` runs may still meet the plan before.
    public var faultPlan: FaultPlan? { handler.current.injector?.plan }
    let handler: ReplayHandler
    let recorder: RecordingHandler?
    /// Held by the calls that change what the server serves (``setFaultPlan(_:)``, ``replaceCassettes(with:)``,
    /// ``add(_:)``), one at a time, so that none of them checks or copies a state another is replacing. Taken
    /// before any other lock, and never while answering a request.
    let controls = Lock(())
    let http: HTTPServer
    /// Replies decided in-process for routed requests that the socket delivers.
    let handedOver = HandedOverReplies()
    /// What ``whenStopped(_:)`` was given, run once by ``stop()``; `nil` once run.
    private let stopActions = Lock<[@Sendable () -> Void]?>([])

    /// Creates a server for `cassettes` (replayed in ``Mode/replay`` and ``Mode/replayOrRecord`` modes);
    /// nothing is bound or read until ``start()``.
    /// - Throws: ``MockServerError`` `invalidFaultPlan` (in replay mode only) when the configuration's fault
    ///   specs, or the environment it reads the plan from, hold an invalid one, or when a `service-error` or error-event
    ///   rule names a template none of `cassettes` holds (unless its filters select none of their recorded
    ///   requests: a suite-wide plan aims such a rule at another API); the sentence names the rule and the
    ///   templates there are. `invalidConfiguration` when ``Configuration/controlToken`` is empty, an entry of
    ///   ``Configuration/allowedHosts`` is not a host name, or a body rule of ``Configuration/matching`` cannot
    ///   take effect (a JSON path that does not parse, say).
    public convenience init(cassettes: [Cassette], configuration: Configuration = Configuration()) throws(MockServerError) {
        try self.init(loaded: cassettes.map(LoadedCassette.init), configuration: configuration)
    }

    /// A server for the cassette files `urls`, read one after the other (see ``LoadedCassette``), the memory
    /// used while decoding each handed back to the system before the next: how `recorder replay` serves files.
    /// - Throws: ``MockServerError`` for the first file that cannot be read, or as ``init(cassettes:configuration:)``.
    package convenience init(contentsOf urls: [URL], configuration: Configuration = Configuration()) throws(MockServerError) {
        var loaded: [LoadedCassette] = []
        for url in urls {
            loaded.append(try LoadedCassette(contentsOf: url))
            Sys.releaseFreedMemory()
        }
        try self.init(loaded: loaded, configuration: configuration)
    }

    /// A server for cassettes already read and prepared (see ``CassetteFileCache``), shared with other servers.
    /// Every initializer ends here, with the engine holding every cassette the server replays (bar the in-code
    /// one, which has no error templates, and the file a recording appends to, read at ``start()``, when faults
    /// do not apply), so the fault plan's templates resolve against all of them at once.
    init(loaded cassettes: [LoadedCassette], configuration: Configuration = Configuration()) throws(MockServerError) {
        if configuration.controlToken?.isEmpty == true {
            throw MockServerError(
                .invalidConfiguration, "the control token is empty; give a token of at least one character, or none to allow loopback clients only")
        }
        if let problem = configuration.matching.bodyRuleProblem {
            throw MockServerError(.invalidConfiguration, "matching.\(problem.key): \(problem.reason)")
        }
        let hosts = try HostCheck(allowing: configuration.allowedHosts)
        let engine = ReplayEngine(loaded: cassettes, options: configuration.replay)
        self.configuration = configuration
        let plan = configuration.mode.forwards ? nil : try configuration.faults.plan()
        journal = Journal(capacity: configuration.journalCapacity)
        handler = ReplayHandler(
            engine: engine, journal: journal,
            injector: try CassetteServer.checkedInjector(applying: plan, to: engine, identity: configuration.faultIdentity),
            streamTiming: configuration.streamTiming, observer: configuration.onRequest,
            onConversationNearMiss: configuration.onConversationNearMiss)
        let served: any HTTPHandler
        if configuration.mode.forwards, let options = configuration.recording {
            let recorder = RecordingHandler(
                records: configuration.mode.records, replaysFirst: configuration.mode == .replayOrRecord, options: options,
                engine: engine, journal: journal, observer: configuration.onRequest)
            self.recorder = recorder
            served = recorder
        } else {
            recorder = nil
            served = handler
        }
        let control = ControlAPI(
            token: configuration.controlToken, redaction: configuration.recording?.redaction ?? .default,
            keepAliveInterval: configuration.eventKeepAliveInterval)
        http = HTTPServer(
            configuration: configuration.server,
            handler: ControlHandler(
                api: control, inner: served, hosts: hosts, handedOver: handedOver, onRejection: configuration.onRejection),
            group: .shared,
            onDescriptorsExhausted: configuration.onDescriptorsExhausted, onRejection: configuration.onRejection)
        control.steer(self)
    }

    /// Binds, listens and returns the base URL once connections are accepted; again while running it
    /// returns the same URL. In the recording modes it first opens the cassette file: a new one is
    /// written at the first exchange; an existing one is appended to (and replayed) in
    /// ``Mode/replayOrRecord`` mode.
    /// - Throws: ``MockServerError`` when a forwarding mode has no ``Configuration/recording``, or record
    ///   mode would replace an existing cassette, or the cassette to append to is unreadable or from
    ///   another upstream; `invalidConfiguration` when it would listen beyond loopback without a
    ///   ``Configuration/controlToken``; `cannotListen` or `stopped` when the address cannot be bound or the
    ///   server was stopped.
    @discardableResult
    public func start() async throws -> URL {
        if configuration.controlToken == nil, !ControlAPI.isLoopback(configuration.server.host) {
            throw MockServerError(
                .invalidConfiguration,
                "the server would listen on \(configuration.server.host), beyond loopback, with its control API open to anyone; give it a control token, or listen on 127.0.0.1"
            )
        }
        if configuration.mode.forwards {
            guard let recorder else {
                throw MockServerError(
                    .missingOptions, "the \(configuration.mode) mode forwards requests, so it needs Configuration.recording with the upstream")
            }
            try recorder.prepare()
        }
        let wasRunning = baseURL != nil
        let url = try await http.start()
        if !wasRunning, let clock = configuration.clock {
            // Clients on the clock pair their transfers with a server only while one runs on it.
            clock.attachServer()
            whenStopped { clock.detachServer() }
        }
        return url
    }

    /// Closes the listener and every connection, stalled ones included. Safe to call more than once.
    /// In a forwarding mode it first cuts the streamed answers being relayed (a stream may never end; each
    /// is recorded as far as it came, marked unfinished, so that replay keeps it open after its last part), then lets the other exchanges
    /// in flight finish (each bounded by ``RecordingOptions/timeout``; requests arriving meanwhile get a 503),
    /// so every exchange a client was answered is recorded, then writes the recorded cassette file and removes its capture log; call
    /// ``saveRecording()`` afterwards to learn whether that succeeded.
    public func stop() async {
        let wasRunning = baseURL != nil
        if let recorder {
            recorder.cutStreams()
            await recorder.inFlight.drain()
        }
        await http.stop()
        handedOver.discardAll()
        recorder?.client.invalidate()
        let actions = stopActions.withLock { actions in
            defer { actions = nil }
            return actions ?? []
        }
        actions.forEach { $0() }
        // A failure here is reported by saveRecording(), which tries again.
        _ = await recorder?.recording?.flushed()
        if wasRunning { FaultCoverage.record(self) }
    }

    /// Runs `action` once ``stop()`` has closed the server's connections, or at once when the server already
    /// stopped: how the parts that open something for this server alone (host routing's loopback sessions)
    /// release it with the server. Actions run once, in the order given.
    package func whenStopped(_ action: @escaping @Sendable () -> Void) {
        let added = stopActions.withLock { actions -> Bool in
            guard actions != nil else { return false }
            actions?.append(action)
            return true
        }
        if !added { action() }
    }

    /// The cassette recorded so far in ``Mode/record`` and ``Mode/replayOrRecord`` modes (including what an
    /// appended file held before), once ``start()`` has opened it; `nil` otherwise.
    public var recordedCassette: Cassette? {
        recorder?.recording?.cassette
    }

    /// One sentence naming each transport failure the cassettes replayed (in the journal's reach), for a test
    /// that failed: the failure it saw on the wire (a reset, a timeout) names no cassette by itself.
    /// `the cassettes replayed transport failures: api interaction 0 (GET /users), which replays a refused
    /// connection as a reset; if the upstream was down when they were recorded, re-record them with the
    /// upstream up: `MOCKSERVER_RECORD=all swift test --filter TEST``; `nil` when none was replayed.
    package func replayedFailures(test: String?) -> String? {
        var seen = Set<InteractionReference>()
        var named: [String] = []
        for entry in journal.entries where entry.outcome.kind == .matched {
            guard let kind = entry.outcome.replayedFailure, let reference = entry.outcome.interaction,
                seen.insert(reference).inserted
            else { continue }
            named.append("\(reference.cassette) interaction \(reference.index) (\(reference.method) \(reference.target)), \(JournalOutcome.replaying(kind))")
        }
        guard !named.isEmpty else { return nil }
        return "the cassettes replayed transport failures: \(named.joined(separator: "; ")); if the upstream was down when they were "
            + "recorded, re-record them with the upstream up: `\(RecordVariables.record)=all swift test\(test.map { " --filter \($0)" } ?? "")`"
    }

    /// In a recording mode, what the test recording `file` fails with when some requests were not recorded,
    /// because the upstream could not be reached (`upstreamUnreachable`) or sent nothing for the timeout
    /// (`upstreamTimedOut`), naming the upstream, why, how many and the first; `nil` when every request was
    /// recorded.
    package func unrecordedRequestsError(file: String) -> MockServerError? {
        guard let recorder, let unrecorded = recorder.unrecordedRequests else { return nil }
        return unrecorded.error(upstream: recorder.client.upstream, timeout: recorder.client.timeout, file: file)
    }

    /// Writes the recorded cassette to its file if some recorded exchange is not there yet (``stop()`` does
    /// this; call it to learn whether that worked, or while running to write the file now) and removes the
    /// capture log once the file holds everything; does nothing in the other modes.
    /// - Throws: ``MockServerError`` `cannotSave` or `cassetteExists` when writing fails again; what was
    ///   recorded stays in the capture log and the file as they were.
    public func saveRecording() throws(MockServerError) {
        try recorder?.recording?.flush()
    }

    /// The base URL while running, else `nil`.
    public var baseURL: URL? { http.baseURL }

    /// The control API's address while running (`http://127.0.0.1:PORT/__mockserver/`), else `nil`. Under it,
    /// `GET journal` (`?since=N` pages), `GET unmatched` and `GET unused` answer JSON, `GET journal/events` the
    /// journal live as server-sent events, with credentials
    /// redacted by the recording's rules; nothing under it is matched, recorded, faulted or journaled. Only
    /// clients on loopback may call it, unless ``Configuration/controlToken`` is set.
    public var controlURL: URL? {
        baseURL.flatMap { URL(string: ControlAPI.prefix, relativeTo: $0)?.absoluteURL }
    }

    /// How many client connections are open right now (0 when not running).
    var openConnectionCount: Int { http.openConnectionCount }

    /// Adds a hand-written interaction for the odd case; it answers before any cassette does: requests it
    /// matches are answered by the added interactions alone, in the order added, then as the after-last policy
    /// says (repeat unless ``CassetteServer/Configuration/matching`` sets another `afterLast`). Build one with
    /// ``Interaction/stub(_:_:status:json:headers:requestBody:requestHeaders:)``. Each call copies the server's
    /// index, so it suits a handful of additions, not thousands. The interactions added stay across
    /// ``replaceCassettes(with:)``.
    public func add(_ interaction: Interaction) {
        if let recorder {
            recorder.add(interaction)
        } else {
            controls.withLock { _ in handler.current.engine.add(interaction) }
        }
    }

    /// The folder the control API switches cassettes by name from (``Configuration/recordingsFolder``).
    var recordingsFolder: URL? { configuration.recordingsFolder }

    /// The near misses of the requests nothing answered (see ``unmatchedRequests``).
    var unmatched: UnmatchedRequests { handler.unmatched }

    /// The connections closed on accept by `refuse` faults, in order.
    var refusedConnections: [FaultDecision] {
        handler.refusals.withLock { $0 }
    }

    /// The near-miss report of every request nothing answered, in arrival order: the first 100 of them
    /// (later ones are only counted, in ``verifyNoUnmatchedRequests()``). Kept by the server itself, so the
    /// journal's limits do not affect it.
    public var unmatchedRequests: [NearMiss] {
        handler.unmatched.snapshot.kept
    }

    /// Throws when any request went unmatched, with one sentence and every near-miss report (the first 100;
    /// the rest counted), secrets redacted as the control API shows them: what strict mode fails a test with,
    /// which goes to test logs and CI output.
    public func verifyNoUnmatchedRequests() throws(MockServerError) {
        let (misses, count) = handler.unmatched.snapshot
        guard count > 0 else { return }
        let noun = count == 1 ? "request was" : "requests were"
        let rules = configuration.recording?.redaction ?? .default
        var message =
            "\(count) \(noun) not matched by any recorded interaction:\n\n"
            + misses.map { $0.redacted(by: rules).description }.joined(separator: "\n\n")
        if count > misses.count { message += "\n\n… and \(count - misses.count) more" }
        if let replayed = replayedFailures(test: nil) { message += "\n\nAlso, " + replayed }
        throw MockServerError(.unmatchedRequests, message)
    }

    /// The error a test helper fails a replaying test with when no request reached this server although its
    /// cassettes hold interactions (see ``Configuration/expectsRequests``); `nil` when one did, or when the
    /// journal was reset (what came before is unknown), or when there is nothing to replay. A connection
    /// (`acceptedConnections`, counted while the server ran) counts as a request reaching it.
    package func noRequestError(acceptedConnections: UInt64) -> MockServerError? {
        let count = engine.interactionCount
        guard count > 0, acceptedConnections == 0, journal.recordedCount == 0, journal.position.resets == 0, refusedConnections.isEmpty
        else { return nil }
        let names = engine.servedCassetteNames(under: configuration.recordingsFolder).joined(separator: ", ")
        let held = count == 1 ? "1 interaction" : "\(count) interactions"
        return MockServerError(
            .assertionFailed,
            "no request reached the server replaying \(names) (\(held)), so the test may have talked to the real API and passed for the wrong reason: make the client's URLSession from server.sessionConfiguration() (or its base URL server.baseURL; a ServiceKit WebSocket on Linux also needs the client's webSocketTransport to be LoopbackWebSocketTransport(), since URLSession there opens none), and launch an app under UI test with server.launchEnvironment; a test that means to send no request sets expectsRequests = false in its CassetteServer.Configuration"
        )
    }

    /// How many connections the server accepted since it started; 0 once stopped.
    package var acceptedConnectionCount: UInt64 { http.acceptedConnectionCount }

    /// Throws ``MockServerError`` listing the interactions of the server's cassettes that no request used.
    public func verifyEveryInteractionUsed() throws {
        try journal.verifyEveryInteractionUsed(among: engine.interactions)
    }
}

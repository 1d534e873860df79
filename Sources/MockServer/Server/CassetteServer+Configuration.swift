import Foundation
import ServiceReplayShared

extension CassetteServer {
    /// Where a server's fault plan comes from.
    public enum FaultSource: Sendable {
        /// No faults, whatever the environment says.
        case none
        /// `MOCKSERVER_FAULTS` and `MOCKSERVER_SEED` (see ``FaultPlan/fromEnvironment(_:)``); no faults
        /// when they are unset. The default, so that CI can rerun a whole suite under a plan.
        case environment
        /// This plan, whatever the environment says.
        case plan(FaultPlan)
        /// This plan written as fault specs (`"status=503"`, `"reset,path=/cart; latency=200ms"`; see
        /// ``FaultPlan/parse(specs:seed:)``), whatever the environment says, seeded with `seed` (default
        /// ``FaultPlan/defaultSeed``). The text is read when the server is created, so a mistake in it fails the
        /// test that uses it (`invalidFaultPlan`, naming the spec and what is wrong) and no other, where a plan
        /// parsed with `try!` in a trait would end the whole test process.
        case specs(String, seed: UInt64 = FaultPlan.defaultSeed)

        /// The plan this source gives now: `nil` for ``none``, and for ``environment`` when the environment
        /// names none.
        /// - Throws: ``MockServerError`` `invalidFaultPlan` when the specs, or the environment's, are not valid.
        func plan() throws(MockServerError) -> FaultPlan? {
            switch self {
            case .none: nil
            case .plan(let plan): plan
            case .specs(let specs, let seed): try FaultPlan.parse(specs: specs, seed: seed)
            case .environment: try FaultPlan.fromEnvironment()
            }
        }
    }

    /// How a ``CassetteServer`` listens, matches, injects faults and reports.
    public struct Configuration: Sendable {
        /// Socket, limits and timeouts: loopback on an ephemeral port unless a tool (`recorder`) sets it.
        package var server = HTTPServer.Configuration()
        /// Matching rules added to every cassette's own `matching` block: the ignore lists and the header list
        /// are merged with the cassette's, and a set `afterLast` replaces every cassette's policy. Default: no
        /// extra rules.
        public var matching: MatchRules
        /// A custom condition for the odd API that the rules cannot express: within method and path (which still
        /// have to agree), it alone decides whether `received` matches `recorded`, so query, headers and body
        /// count only if it compares them (``MatchRules/matches(_:_:)`` compares them as the rules would).
        /// Called from several threads at once. Interactions are then tried one by one within their method and
        /// path, so a lookup costs more as that group grows. Default `nil`: the rules decide.
        public var matcher: (@Sendable (_ recorded: RecordedRequest, _ received: HTTPRequest) -> Bool)?
        /// What the engine is given: ``matching`` and ``matcher`` together.
        package var replay: ReplayOptions { ReplayOptions(rules: matching, matcher: matcher.map(RequestMatcher.init)) }
        /// Where the fault plan comes from; default ``FaultSource/environment``. Consulted in ``Mode/replay``
        /// mode only: forwarded exchanges are never disturbed, so nothing injected is ever recorded. The plan it
        /// gives is the one in force at start; ``CassetteServer/setFaultPlan(_:)`` replaces it while running.
        public var faults: FaultSource
        /// The test the server serves, as the test helpers name it (its cassettes and its name), or `nil` for
        /// a server started directly (`CassetteServer(...)`, `recorder replay`): a `p:` trigger's draws, and a
        /// random latency's and garbage's, depend on it as well as on the seed, so that a suite-wide plan
        /// fires on a different share of each test's requests, each test still reproducible with its seed
        /// (see ``SeededDraw/seed(_:identity:)``). With `nil` the draws depend on the seed alone. Default `nil`.
        package var faultIdentity: String?
        /// Whether an unmatched request fails the test that owns the server (through
        /// ``CassetteServer/verifyNoUnmatchedRequests()``, which ``withMockServer(replaying:in:upstream:configuration:filePath:function:_:)``
        /// calls at the end); default `false`. Unmatched requests are answered 404 either way.
        public var strict: Bool
        /// How many requests the journal keeps (oldest dropped first); default ``Journal/defaultCapacity``.
        public var journalCapacity: Int
        /// Called with each request's journal entry as soon as it is answered (or its fault chosen), on an
        /// event-loop thread: it must be quick and must not block. Default `nil`. `recorder replay` prints
        /// its lines from here.
        public var onRequest: (@Sendable (JournalEntry) -> Void)?
        /// Called when the process has run out of file descriptors and cannot accept a connection, once per
        /// shortage, on an event-loop thread: it must be quick and must not block. Meanwhile the server keeps
        /// serving the connections it has, new ones wait in the listen backlog, and accepting resumes by itself
        /// once descriptors are freed. Default `nil`. The `recorder` commands print a warning from here.
        package var onDescriptorsExhausted: (@Sendable () -> Void)?
        /// Called for each request the server answers itself before any cassette is consulted (malformed: 400;
        /// not arrived in time: 408; too large: 413 or 431; 417, 505), which the journal never holds, on an
        /// event-loop thread: it must be quick and must not block. Default `nil`. The `recorder` commands print
        /// a line from here.
        package var onRejection: (@Sendable (RejectedRequest) -> Void)?
        /// Called when a replayed WebSocket conversation meets a client message its recording does not hold (the
        /// near miss also goes to ``CassetteServer/unmatchedRequests``), off the event loop: it must be quick.
        /// Default `nil`. `recorder replay` prints a line from here, as the upgrade's line was printed long before.
        package var onConversationNearMiss: (@Sendable (NearMiss) -> Void)?
        /// Whether requests are replayed, forwarded to an upstream and recorded, or both; default
        /// ``Mode/replay``. Every other mode needs ``recording``.
        public var mode: Mode
        /// The upstream and the cassette file for the forwarding modes; default `nil`. Ignored in
        /// ``Mode/replay`` mode.
        public var recording: RecordingOptions?
        /// How replayed streams (`"stream"` bodies) are timed; default ``StreamTiming/recorded``.
        public var streamTiming: StreamTiming
        /// The clock of the server's time-based faults (latency, stall, throttle) and of its streams' recorded
        /// gaps, for requests from a ServiceKit client on the same clock; default `nil`: the real clock. On a
        /// `VirtualClock` nothing sleeps: a fault's wait and the client's timeout are compared on the clock, so
        /// the outcome never depends on the machine's speed. Requests from clients not on the clock (an app's
        /// own `URLSession`) are still answered in real time, and the clock's `realTimeAnswers` counts the
        /// timed ones. `VirtualClock` comes with ServiceKit, whose client the clock is shared with.
        public var clock: VirtualClock? {
            get { server.clock }
            set { server.clock = newValue }
        }
        /// The token every request to the control API (`/__mockserver/…`) must carry, as
        /// `Authorization: Bearer TOKEN`; default `nil`: no token, and only clients on loopback may call it.
        /// A server that listens on an address other than loopback refuses to start without one. Not
        /// empty: an empty token is refused when the server is created.
        public var controlToken: String?
        /// The names besides loopback's that requests may address the server by in their `Host`: each a host
        /// name or IP address (IPv6 in brackets) without scheme, port or path, matched case-insensitively with
        /// any port, such as a Docker service's name or the Android emulator's `10.0.2.2`; `*` allows every
        /// name. Default empty: only `127.0.0.1` (and the rest of 127.0.0.0/8), `localhost`, `*.localhost` and
        /// `[::1]`, so that a web page that rebinds its name to this machine can neither read nor steer the
        /// server. A request with another `Host` gets 421 and one sentence naming it, and nothing else happens
        /// (it is not matched, forwarded, faulted or journaled); one without `Host` (HTTP/1.0) is answered.
        /// Whatever this allows, a request a browser marks as sent by a page of another site
        /// (`Sec-Fetch-Site: cross-site`) gets 403 and changes nothing, and so does a WebSocket upgrade whose
        /// `Origin` names a page of a host not allowed here (a WebSocket is not bound by CORS).
        /// Routed requests (``CassetteServer/sessionConfiguration(_:)``, app routing) address the server by its
        /// loopback address and need nothing here. An entry that is not a name is refused when the server is
        /// created.
        public var allowedHosts: [String] = []
        /// The folder of cassette files `PUT /__mockserver/cassettes` loads cassettes from by name, and whose
        /// names `GET` lists; `nil` (the default) refuses the switch. ``withMockServer(replaying:in:upstream:configuration:filePath:function:_:)``
        /// sets it to its recordings folder, and `recorder replay` to the folder it serves.
        package var recordingsFolder: URL?
        /// Whether routed requests of this process are answered in it when their reply needs no socket (see
        /// ``CassetteServer/sessionConfiguration(_:)``); `false` sends every one over loopback. Default `true`.
        /// For the tests that compare the two roads.
        package var answersRoutedRequestsInProcess = true
        /// Whether a test helper (the `.mockServer` trait, ``withMockServer(replaying:in:upstream:configuration:filePath:function:_:)``,
        /// `withReplay`) fails a replaying test whose server received no request at all while its cassettes hold
        /// interactions: its client most likely talked to the real API (a session not made from
        /// ``CassetteServer/sessionConfiguration(_:)``, an app launched without ``CassetteServer/launchEnvironment``),
        /// and would pass for the wrong reason. Default `true`; `false` for a test that means to send nothing.
        /// Modes that forward (recording, live) never check.
        public var expectsRequests = true
        /// How often the journal's event stream sends its keep-alive comment when nothing else goes out; tests
        /// shorten it.
        var eventKeepAliveInterval: Duration = .seconds(15)

        /// Creates a configuration; every parameter has the default described on its property.
        public init(
            matching: MatchRules = MatchRules(), matcher: (@Sendable (_ recorded: RecordedRequest, _ received: HTTPRequest) -> Bool)? = nil,
            faults: FaultSource = .environment, strict: Bool = false, journalCapacity: Int = Journal.defaultCapacity,
            onRequest: (@Sendable (JournalEntry) -> Void)? = nil, mode: Mode = .replay, recording: RecordingOptions? = nil,
            streamTiming: StreamTiming = .recorded
        ) {
            self.streamTiming = streamTiming
            self.matching = matching
            self.matcher = matcher
            self.faults = faults
            self.strict = strict
            self.journalCapacity = journalCapacity
            self.onRequest = onRequest
            self.onDescriptorsExhausted = nil
            self.onRejection = nil
            self.onConversationNearMiss = nil
            self.faultIdentity = nil
            self.mode = mode
            self.recording = recording
        }
    }
}

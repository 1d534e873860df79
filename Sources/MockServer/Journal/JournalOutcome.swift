/// What became of a request: matched a recorded interaction, went unmatched, had a fault injected, was
/// recorded from the upstream, or passed through to it. An open set: later layers add kinds.
public struct JournalOutcome: Sendable, CustomStringConvertible {
    /// The kind of outcome.
    public struct Kind: Sendable, Hashable, RawRepresentable, CustomStringConvertible {
        /// The kind's name.
        public let rawValue: String
        /// Creates a kind.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The name.
        public var description: String { rawValue }

        /// A recorded interaction answered (possibly as a replayed transport failure).
        public static let matched = Kind(rawValue: "matched")
        /// Nothing answered; ``JournalOutcome/nearMiss`` says why.
        public static let unmatched = Kind(rawValue: "unmatched")
        /// A fault was injected; ``JournalOutcome/faultRule`` and ``JournalOutcome/faultSeed`` say which rule and seed.
        public static let faultInjected = Kind(rawValue: "fault")
        /// The request was forwarded upstream and the exchange recorded.
        public static let recorded = Kind(rawValue: "recorded")
        /// The request was forwarded upstream without recording.
        public static let passedThrough = Kind(rawValue: "passed through")
        /// The upstream could not be reached (refused, unknown host, no TLS agreement, or the connection lost
        /// before any byte of an answer); the client got a 502 saying so, and nothing was recorded.
        public static let upstreamUnreachable = Kind(rawValue: "upstream unreachable, not recorded")
        /// The upstream sent nothing for the recording server's timeout (see ``RecordingOptions/timeout``): the
        /// client got a 504 saying so, and nothing was recorded, since the limit was the recorder's.
        public static let upstreamTimedOut = Kind(rawValue: "upstream timed out, not recorded")
    }

    /// The kind of outcome.
    public var kind: Kind
    /// The interaction that answered (or whose answer a fault replaced), when there was one.
    public var interaction: InteractionReference?
    /// Why nothing matched, for unmatched requests.
    public var nearMiss: NearMiss?
    /// For faults, which rule fired, its spelling and on which of its matches (`rule 1 'reset' on match 2`);
    /// otherwise `nil`.
    public var faultRule: String?
    /// For faults, the seed of the generator that decided, so that a run can be replayed; otherwise `nil`.
    public var faultSeed: UInt64?
    /// The status sent, when a response was sent.
    public var status: Int?
    /// For a matched interaction that holds a transport failure (recorded or written by hand), its kind: the
    /// connection was reset, or left without an answer, on purpose. `nil` otherwise.
    package var replayedFailure: TransportFailure.Kind?
    /// For an upgrade answered with a WebSocket conversation, what has crossed it so far; `nil` otherwise.
    package var webSocket: WebSocketTranscript?

    /// Creates an outcome from its parts.
    init(
        kind: Kind, interaction: InteractionReference? = nil, nearMiss: NearMiss? = nil, faultRule: String? = nil,
        faultSeed: UInt64? = nil, status: Int? = nil
    ) {
        self.kind = kind
        self.interaction = interaction
        self.nearMiss = nearMiss
        self.faultRule = faultRule
        self.faultSeed = faultSeed
        self.status = status
    }

    /// A matched interaction answered with `status`, or replayed a transport failure of kind `replayedFailure`.
    package static func matched(_ interaction: InteractionReference, status: Int?, replayedFailure: TransportFailure.Kind? = nil) -> JournalOutcome {
        var outcome = JournalOutcome(kind: .matched, interaction: interaction, status: status)
        outcome.replayedFailure = replayedFailure
        return outcome
    }

    /// A fault from `rule` (decided with `seed`) replaced or disturbed the answer of `interaction`, if any.
    static func faultInjected(rule: String, seed: UInt64? = nil, interaction: InteractionReference? = nil, status: Int? = nil) -> JournalOutcome {
        JournalOutcome(kind: .faultInjected, interaction: interaction, faultRule: rule, faultSeed: seed, status: status)
    }

    /// How a replayed transport failure of `kind` is described: `which replays a refused connection as a reset`.
    static func replaying(_ kind: TransportFailure.Kind) -> String {
        switch kind {
        case .refused: "which replays a refused connection as a reset"
        case .reset: "which replays a reset connection"
        case .timeout: "which replays an upstream that never answered"
        }
    }

    /// The exchange was forwarded and recorded as `interaction`.
    static func recorded(_ interaction: InteractionReference?, status: Int?) -> JournalOutcome {
        JournalOutcome(kind: .recorded, interaction: interaction, status: status)
    }

    /// The exchange was forwarded without recording.
    static func passedThrough(status: Int?) -> JournalOutcome {
        JournalOutcome(kind: .passedThrough, status: status)
    }

    /// Nothing was recorded because of `failure`: the upstream could not be reached, or (a `timeout`) sent
    /// nothing for the recorder's timeout; the client got `status`.
    static func notRecorded(_ failure: TransportFailure, status: Int) -> JournalOutcome {
        JournalOutcome(kind: failure.kind == .timeout ? .upstreamTimedOut : .upstreamUnreachable, status: status)
    }

    /// `github-users interaction 3`, `unmatched`, `fault reset,when=first:2 (seed 7)`, `recorded`,
    /// `passed through (200)`; a transport failure replayed says so: `github-users interaction 3, which replays
    /// a refused connection as a reset`.
    public var description: String {
        var text: String
        switch kind {
        case .matched:
            text = interaction.map { "\($0.cassette) interaction \($0.index)" } ?? "matched"
            if let replayedFailure { text += ", " + Self.replaying(replayedFailure) }
        case .faultInjected: text = "fault " + (faultRule ?? "") + (faultSeed.map { " (seed \($0))" } ?? "")
        default: text = kind.rawValue
        }
        if kind != .matched, kind != .unmatched, let status { text += " (\(status))" }
        return text
    }
}

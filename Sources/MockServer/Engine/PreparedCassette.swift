import Foundation

/// A cassette as a ``ReplayEngine`` keeps it: rules resolved, every reply built once, and per interaction only
/// what replay and reports need (the reply, the recorded request, and an ``InteractionArchive``). The decoded
/// cassette is not kept: its JSON bodies would double the memory of the replies serialized from them, so
/// ``cassette`` rebuilds it on demand. Immutable, so lookups share it with one retain; appending in code
/// replaces it with a new one.
final class PreparedCassette: Sendable {
    /// The cassette's own fields (name, origin, rules, error templates...), without its interactions.
    let metadata: Cassette
    /// Its position in the engine's cassettes.
    let ordinal: Int
    /// The number its references carry (``InteractionReference/cassetteIndex``): its ordinal, plus the number of
    /// cassettes a server served before it switched to these (see ``ReplayEngine/replacingCassettes(with:)``).
    let number: Int
    /// Lower is consulted first when several cassettes match; the in-code cassette's is negative.
    let rank: Int
    let rules: PreparedRules
    let policy: AfterLastPolicy
    let matcher: RequestMatcher?
    /// Whether a request without query and body is matched by its bucket entry's plain group alone: the
    /// cassette compares no headers and has no custom matcher.
    let plainLookup: Bool
    /// Per interaction: what it replays, its `Content-Length` set and JSON bodies serialized.
    let replies: [PreparedReply]
    /// Per interaction: the recorded request, for custom matchers, near-miss reports and references.
    let requests: [RecordedRequest]
    /// Per interaction: the rest of it.
    let archives: [InteractionArchive]
    /// Per interaction: its reference and status, as an answer carries them.
    let matches: [MatchedInteraction]
    /// The file it was read from; `nil` for a cassette made in code.
    let file: URL?

    init(
        metadata: Cassette, ordinal: Int, number: Int, rank: Int, rules: PreparedRules, policy: AfterLastPolicy,
        matcher: RequestMatcher?, replies: [PreparedReply], requests: [RecordedRequest], archives: [InteractionArchive],
        file: URL? = nil
    ) {
        self.metadata = metadata
        self.file = file
        self.ordinal = ordinal
        self.number = number
        self.rank = rank
        self.rules = rules
        self.policy = policy
        self.matcher = matcher
        plainLookup = matcher == nil && rules.headers.isEmpty
        self.replies = replies
        self.requests = requests
        self.archives = archives
        let recorded = RecordedOutcomes { [archives, replies] member in archives[member].outcome(from: replies[member]) }
        matches = zip(requests, replies).enumerated().map { member, interaction in
            let (request, reply) = interaction
            return MatchedInteraction(
                reference: InteractionReference(
                    cassette: metadata.name, cassetteIndex: number, index: member,
                    method: request.method, target: request.target),
                status: reply.status, failure: reply.failureKind, recorded: recorded)
        }
    }

    /// The per-interaction arrays, in the same order.
    struct Interactions: Sendable {
        var replies: [PreparedReply] = []
        var requests: [RecordedRequest] = []
        var archives: [InteractionArchive] = []

        /// The arrays without the spare capacity left by growing them: they are kept as long as the engine.
        var shrunk: Interactions {
            Interactions(replies: Self.exactCopy(replies), requests: Self.exactCopy(requests), archives: Self.exactCopy(archives))
        }

        /// Interaction `member` as it was given.
        func interaction(_ member: Int) -> Interaction {
            let archive = archives[member]
            return Interaction(
                request: requests[member], outcome: archive.outcome(from: replies[member]),
                recordedAt: archive.recordedAt, durationMs: archive.durationMs)
        }

        /// Every interaction as it was given, in order.
        var all: [Interaction] { requests.indices.map(interaction) }

        private static func exactCopy<Element>(_ elements: [Element]) -> [Element] {
            var copy: [Element] = []
            copy.reserveCapacity(elements.count)
            copy.append(contentsOf: elements)
            return copy
        }
    }

    /// Collects interactions one at a time, in the form the engine keeps, before the cassette's own fields
    /// (name, rules) are known: a cassette file lists its interactions before its `matching` block.
    struct Builder {
        private var shared = SharedStrings()
        private(set) var interactions = Interactions()

        mutating func add(_ interaction: Interaction) {
            let (reply, archive) = InteractionArchive.prepare(interaction, shared: &shared)
            interactions.replies.append(reply)
            interactions.requests.append(shared.request(interaction.request))
            interactions.archives.append(archive)
        }
    }

    /// `loaded` prepared at `ordinal` (its references numbered `number`), consulted by `rank`, under `options`:
    /// its interactions are shared, not prepared again.
    convenience init(_ loaded: LoadedCassette, ordinal: Int, number: Int, rank: Int, options: ReplayOptions) {
        let interactions = loaded.interactions
        self.init(
            metadata: loaded.metadata, ordinal: ordinal, number: number, rank: rank,
            rules: PreparedRules(loaded.metadata.matching, adding: options.rules),
            policy: options.rules.afterLast ?? loaded.metadata.matching.afterLast ?? .repeat, matcher: options.matcher,
            replies: interactions.replies, requests: interactions.requests, archives: interactions.archives, file: loaded.file)
    }

    /// This cassette with `interaction` appended.
    func appending(_ interaction: Interaction) -> PreparedCassette {
        var shared = SharedStrings()
        let (reply, archive) = InteractionArchive.prepare(interaction, shared: &shared)
        return PreparedCassette(
            metadata: metadata, ordinal: ordinal, number: number, rank: rank, rules: rules, policy: policy, matcher: matcher,
            replies: replies + [reply], requests: requests + [shared.request(interaction.request)],
            archives: archives + [archive], file: file)
    }

    /// This cassette at `ordinal` in another engine, its references numbered `number`; nothing is prepared again.
    func moved(to ordinal: Int, number: Int) -> PreparedCassette {
        PreparedCassette(
            metadata: metadata, ordinal: ordinal, number: number, rank: rank, rules: rules, policy: policy, matcher: matcher,
            replies: replies, requests: requests, archives: archives, file: file)
    }

    var name: String { metadata.name }

    /// How many interactions it holds.
    var count: Int { requests.count }

    /// The reference naming interaction `member`.
    func reference(_ member: Int) -> InteractionReference {
        matches[member].reference
    }

    /// Interaction `member` as it was given.
    func interaction(_ member: Int) -> Interaction {
        Interactions(replies: replies, requests: requests, archives: archives).interaction(member)
    }

    /// The cassette as it was given, rebuilt.
    var cassette: Cassette {
        var rebuilt = metadata
        rebuilt.interactions = (0..<count).map(interaction)
        return rebuilt
    }
}

/// The engine's index: a ``CassetteIndex`` of ``PreparedCassette``s.
typealias ReplayIndex = CassetteIndex<PreparedCassette>

extension PreparedCassette: IndexedCassette {}

extension CassetteIndex where Prepared == PreparedCassette {
    /// Adds a cassette, its references numbered by its position; lower `rank` is consulted first when several
    /// cassettes match. Returns its position.
    @discardableResult
    mutating func add(_ cassette: Cassette, rank: Int, options: ReplayOptions) -> Int {
        add(PreparedCassette(LoadedCassette(cassette), ordinal: cassettes.count, number: cassettes.count, rank: rank, options: options))
    }
}

import Foundation
import ServiceReplayLocking

/// Answers requests from cassettes: the single entry point the server calls for every request.
///
/// Matching compares method, path, query (order-insensitive, repeated keys counted, percent-decoding
/// normalized), body (JSON by value, form fields, multipart parts without the boundary, otherwise bytes) and
/// the headers a cassette chooses, minus ignored fields; redaction placeholders in recordings match any value.
/// Lookup is a hash probe per distinct placeholder layout in the request's method-and-path bucket, so it
/// costs the same for 10 interactions as for 100,000 (the `lookup` section of Tests/Benchmarks/run.sh measures it).
///
/// Identical requests replay their recorded responses in order; after the last, each cassette's
/// ``AfterLastPolicy`` applies (repeat by default). When several cassettes match, the first in the order given
/// with an unused match answers (so sequences continue from one cassette into the next), and the first
/// cassette's policy applies once all are used; within a cassette, the earliest unused interaction wins.
/// Interactions added in code with ``add(_:)`` override the cassettes: a request they match is answered by
/// them alone.
///
/// Thread-safe: ``answer(_:)`` may be called from many threads at once; it holds a lock only to read the
/// index and to advance a sequence, never while parsing or comparing.
package final class ReplayEngine: Sendable {
    private final class Snapshot: Sendable {
        let index: ReplayIndex
        /// The cassettes in precedence order (the in-code cassette first), sorted once per snapshot so that
        /// looking up an error template sorts nothing.
        let byRank: [PreparedCassette]
        init(_ index: ReplayIndex) {
            self.index = index
            byRank = index.cassettes.sorted { $0.rank < $1.rank }
        }
    }

    private struct State: Sendable {
        var index: ReplayIndex
        var snapshot: Snapshot
        /// Per group: how many of its members have been served (the next one to serve).
        var uses: [Int]
        /// Position of the in-code cassette once ``add(_:)`` has been called.
        var inCodeCassette: Int?
    }

    /// The name of the cassette that ``add(_:)`` creates for interactions added in code.
    static let inCodeCassetteName = "in-code"

    /// The options given at creation.
    let options: ReplayOptions
    private let state: Lock<State>

    /// Builds the index over `cassettes` (in precedence order), serializing every JSON response body once.
    package convenience init(cassettes: [Cassette], options: ReplayOptions = ReplayOptions()) {
        self.init(loaded: cassettes.map(LoadedCassette.init), options: options)
    }

    /// The one way an engine is built: over cassettes loaded (in precedence order), whose prepared
    /// interactions are shared, not prepared again. After this only the sequences (and ``add(_:)``) change.
    convenience init(loaded cassettes: [LoadedCassette], options: ReplayOptions = ReplayOptions()) {
        var index = ReplayIndex()
        for (position, loaded) in cassettes.enumerated() {
            index.add(PreparedCassette(loaded, ordinal: position, rank: position, options: options))
        }
        self.init(index: index, options: options)
    }

    private init(index: ReplayIndex, options: ReplayOptions) {
        self.options = options
        state = Lock(State(index: index, snapshot: Snapshot(index), uses: Array(repeating: 0, count: index.groups.count),
                           inCodeCassette: index.cassettes.firstIndex { $0.name == ReplayEngine.inCodeCassetteName && $0.rank < 0 }))
    }

    /// A new engine serving this one's cassettes (the in-code one included), then `loaded` as if it had been
    /// given last, every sequence from its start: a recording server builds it, before it serves anything,
    /// when it opens the cassette file it appends to and replays.
    func adding(_ loaded: LoadedCassette) -> ReplayEngine {
        var index = ReplayIndex()
        let cassettes = preparedCassettes
        cassettes.forEach { index.add($0) }
        let rank = max(0, (cassettes.map(\.rank).max() ?? -1) + 1)
        index.add(PreparedCassette(loaded, ordinal: cassettes.count, rank: rank, options: options))
        return ReplayEngine(index: index, options: options)
    }

    /// The prepared cassettes in the order given, followed by the in-code cassette once something was added.
    var preparedCassettes: [PreparedCassette] {
        state.withLock { $0.snapshot }.index.cassettes
    }

    /// How many interactions the cassettes served hold, the in-code cassette's included.
    package var interactionCount: Int {
        preparedCassettes.reduce(0) { $0 + $1.count }
    }

    /// Decides the answer to `request`: the next recorded response (or transport failure) of the matching
    /// interactions, or an unmatched decision carrying the 404 and the near miss. Synchronous and thread-safe.
    ///
    /// A `HEAD` that matches no recorded `HEAD` is answered as HTTP defines it (RFC 9110 §9.3.2): by the
    /// `GET` the same request would get, whose head the server sends without the body. It only looks: the
    /// `GET`'s sequence does not advance, so a later `GET` gets the same answer. Recording modes pass
    /// `headFromGET: false`, so that such a `HEAD` is forwarded and recorded as the upstream answers it.
    package func answer(_ request: HTTPRequest, headFromGET: Bool = true) -> ReplayDecision {
        let snapshot = state.withLock { $0.snapshot }
        let lookup = snapshot.index.lookup(request)
        let candidates = lookup.candidates
        guard !candidates.isEmpty else {
            if headFromGET, request.method == "HEAD", let asGET = answerWithoutAdvancing(Self.getRequest(for: request), snapshot: snapshot) {
                return asGET
            }
            return .unmatched(snapshot.index.nearMiss(for: request, parts: RequestParts(received: request, key: lookup.key, query: lookup.query)))
        }
        let selection = state.withLock { state in
            ReplayEngine.select(from: candidates, groups: state.index.groups, uses: &state.uses, cassettes: snapshot.index.cassettes)
        }
        switch selection {
        case .serve(let cassette, let member, let isRepeat):
            return .matched(ReplayMatch(snapshot.index.cassettes[cassette], member: member, isRepeat: isRepeat))
        case .usedUp(let cassette, let members):
            let references = members.map { snapshot.index.cassettes[cassette].reference($0) }
            return .unmatched(NearMiss(method: request.method, target: request.target, closest: nil, differences: [], usedUp: references))
        }
    }

    /// The near miss of `request` when no recorded interaction could answer it, as ``answer(_:headFromGET:)``
    /// would report it, leaving every sequence where it is; `nil` when one could (used up or not). For a fault
    /// that replaces the answer without replaying it, so that strict mode still sees an unrecorded request.
    package func nearMissIfUnrecorded(_ request: HTTPRequest) -> NearMiss? {
        let snapshot = state.withLock { $0.snapshot }
        let lookup = snapshot.index.lookup(request)
        guard lookup.candidates.isEmpty else { return nil }
        if request.method == "HEAD", !snapshot.index.lookup(Self.getRequest(for: request)).candidates.isEmpty { return nil }
        return snapshot.index.nearMiss(for: request, parts: RequestParts(received: request, key: lookup.key, query: lookup.query))
    }

    /// What ``answer(_:)`` would serve `request` from `snapshot`, leaving every sequence where it is; `nil`
    /// when nothing matches.
    private func answerWithoutAdvancing(_ request: HTTPRequest, snapshot: Snapshot) -> ReplayDecision? {
        let candidates = snapshot.index.lookup(request).candidates
        guard !candidates.isEmpty else { return nil }
        var uses = state.withLock { $0.uses }
        switch ReplayEngine.select(from: candidates, groups: snapshot.index.groups, uses: &uses, cassettes: snapshot.index.cassettes) {
        case .serve(let cassette, let member, let isRepeat):
            return .matched(ReplayMatch(snapshot.index.cassettes[cassette], member: member, isRepeat: isRepeat))
        case .usedUp:
            return nil
        }
    }

    /// `request` as a `GET`: what a `HEAD` asks about.
    private static func getRequest(for request: HTTPRequest) -> HTTPRequest {
        var get = request
        get.method = "GET"
        return get
    }

    /// Adds a hand-written interaction (see ``Interaction/stub(_:_:status:json:headers:requestBody:requestHeaders:)``)
    /// to the in-code cassette. It overrides the loaded cassettes: requests it matches are answered by the
    /// in-code interactions alone, in the order added, then by the engine's after-last policy (repeat unless
    /// ``ReplayOptions/rules`` says otherwise). Costs a copy of the index, so it suits a handful of additions,
    /// not thousands.
    func add(_ interaction: Interaction) {
        state.withLock { state in
            let cassette: Int
            if let existing = state.inCodeCassette {
                cassette = existing
            } else {
                cassette = state.index.add(Cassette(name: ReplayEngine.inCodeCassetteName, origin: .handWritten), rank: -1, options: options)
                state.inCodeCassette = cassette
            }
            state.index.append(interaction, toCassette: cassette)
            state.uses += Array(repeating: 0, count: state.index.groups.count - state.uses.count)
            state.snapshot = Snapshot(state.index)
        }
    }

    /// The response of the service-level error template `name` (for `service-error=NAME` faults), ready to
    /// send: from the cassette named `cassette` when given, else from the first cassette that has one.
    func errorTemplate(named name: String, inCassette cassette: String? = nil) -> HTTPResponse? {
        let snapshot = state.withLock { $0.snapshot }
        for prepared in snapshot.byRank where cassette == nil || prepared.name == cassette {
            if let template = prepared.metadata.errorTemplates[name] { return template.replayResponse }
        }
        return nil
    }
}

import Foundation
import ServiceReplayShared

/// Answers requests from cassettes: the single entry point the server calls for every request.
///
/// Matching compares method, path, query (order-insensitive, repeated keys counted, percent-decoding
/// normalized), body (JSON by value, form fields, multipart parts without the boundary, otherwise bytes) and
/// the headers a cassette chooses, minus ignored fields; redaction placeholders in recordings match any value.
/// A recorded request that carried `Range`, `x-ms-range` or `If-Range` is matched only by the same values, one that carried
/// `If-None-Match` or `If-Modified-Since` only by a conditional request, and such a recording answers before
/// one that carried none (``RequestConditions``).
/// Lookup is a hash probe per distinct placeholder layout in the request's method-and-path bucket, so it
/// costs the same for 10 interactions as for 100,000 (the `lookup` section of Tests/Benchmarks/run.sh measures it).
///
/// When matching recordings differ in a header that can pick an answer (any but the volatile ones, see
/// ``DecidingHeaders``), those that agree most with the request answer it.
/// Identical requests replay their recorded responses in order; after the last, each cassette's
/// ``AfterLastPolicy`` applies (repeat by default). When several cassettes match, the first in the order given
/// with an unused match answers (so sequences continue from one cassette into the next), and the first
/// cassette's policy applies once all are used; within a cassette, the earliest unused interaction wins.
/// Interactions added in code with ``add(_:)`` override the cassettes: a request they match is answered by
/// them alone.
///
/// Thread-safe: ``answer(_:parts:headFromGET:streamTiming:)`` may be called from many threads at once; it takes
/// the engine's one lock once per request, to look the request up in the index and advance its sequence. The
/// request is parsed before, and the reply and any near-miss report are built after.
package final class ReplayEngine: Sendable {
    private struct State: Sendable {
        var index: ReplayIndex
        /// Per group: how many of its members have been served (the next one to serve).
        var uses: [Int]
        /// Per group whose members differ in headers that pick an answer: which members have been served.
        var served: [Int: [Bool]] = [:]
        /// Position of the in-code cassette once ``add(_:)`` has been called.
        var inCodeCassette: Int?
    }

    /// The name of the cassette that ``add(_:)`` creates for interactions added in code.
    static let inCodeCassetteName = "in-code"

    /// The options given at creation.
    let options: ReplayOptions
    /// The number the references of the first cassette carry (see ``PreparedCassette/number``): 0, unless
    /// ``replacingCassettes(with:)`` built the engine.
    let firstNumber: Int
    private let state: Lock<State>

    /// Builds the index over `cassettes` (in precedence order), serializing every JSON response body once.
    package convenience init(cassettes: [Cassette], options: ReplayOptions = ReplayOptions()) {
        self.init(loaded: cassettes.map(LoadedCassette.init), options: options)
    }

    /// The one way an engine is built: over cassettes loaded (in precedence order), whose prepared
    /// interactions are shared, not prepared again. After this only the sequences (and ``add(_:)``) change;
    /// ``replacingCassettes(with:)`` builds another engine.
    convenience init(loaded cassettes: [LoadedCassette], options: ReplayOptions = ReplayOptions()) {
        self.init(index: Self.index(of: cassettes, firstNumber: 0, options: options), firstNumber: 0, options: options)
    }

    private init(index: ReplayIndex, firstNumber: Int, options: ReplayOptions) {
        self.options = options
        self.firstNumber = firstNumber
        state = Lock(
            State(
                index: index, uses: Array(repeating: 0, count: index.groups.count),
                inCodeCassette: index.cassettes.firstIndex { $0.name == ReplayEngine.inCodeCassetteName && $0.rank < 0 }))
    }

    /// The index over `cassettes`, each consulted in the order given, their references numbered from `firstNumber`.
    private static func index(of cassettes: [LoadedCassette], firstNumber: Int, options: ReplayOptions) -> ReplayIndex {
        var index = ReplayIndex()
        for (position, loaded) in cassettes.enumerated() {
            index.add(PreparedCassette(loaded, ordinal: position, number: firstNumber + position, rank: position, options: options))
        }
        return index
    }

    /// A new engine serving this one's cassettes (the in-code one included), then `loaded` as if it had been
    /// given last, every sequence from its start: a recording server builds it, before it serves anything,
    /// when it opens the cassette file it appends to and replays.
    func adding(_ loaded: LoadedCassette) -> ReplayEngine {
        var index = ReplayIndex()
        let cassettes = preparedCassettes
        cassettes.forEach { index.add($0) }
        let rank = max(0, (cassettes.map(\.rank).max() ?? -1) + 1)
        index.add(PreparedCassette(loaded, ordinal: cassettes.count, number: firstNumber + cassettes.count, rank: rank, options: options))
        return ReplayEngine(index: index, firstNumber: firstNumber, options: options)
    }

    /// A new engine serving `loaded` (in precedence order) instead of this one's cassettes, then this one's
    /// in-code cassette (what ``add(_:)`` added, still answering first), every sequence from its start. Its
    /// references are numbered on after this engine's, so that a journal kept across the switch never takes an
    /// interaction of one for an interaction of the other. Nothing is prepared again. Its caller keeps
    /// ``add(_:)`` from running meanwhile, or that addition stays with this engine alone.
    func replacingCassettes(with loaded: [LoadedCassette]) -> ReplayEngine {
        let (cassettes, inCode) = state.withLock { ($0.index.cassettes, $0.inCodeCassette) }
        let numberedFrom = firstNumber + cassettes.count
        var index = Self.index(of: loaded, firstNumber: numberedFrom, options: options)
        if let inCode {
            index.add(cassettes[inCode].moved(to: loaded.count, number: numberedFrom + loaded.count))
        }
        return ReplayEngine(index: index, firstNumber: numberedFrom, options: options)
    }

    /// Puts every sequence back to its start, as when the engine was built: the next request of each replays
    /// its first recorded answer again. Takes the engine's lock once; an answer chosen before stays chosen.
    func resetSequences() {
        state.withLock { state in
            for group in state.uses.indices { state.uses[group] = 0 }
            state.served = [:]
        }
    }

    /// The prepared cassettes in the order given, followed by the in-code cassette once something was added.
    var preparedCassettes: [PreparedCassette] {
        state.withLock { $0.index.cassettes }
    }

    /// The cassettes served, in precedence order, the in-code cassette left out.
    var servedCassettes: [PreparedCassette] {
        preparedCassettes.filter { !($0.name == Self.inCodeCassetteName && $0.rank < 0) }.sorted { $0.rank < $1.rank }
    }

    /// The names of the cassettes served (each cassette's own), in precedence order, the in-code cassette's left out.
    var servedCassetteNames: [String] { servedCassettes.map(\.name) }

    /// The names of the cassettes served as a test names them: a cassette read from a file under `folder` by its
    /// path there without `.json` (`KintoAppTests/app`), any other by its own name.
    func servedCassetteNames(under folder: URL?) -> [String] {
        servedCassettes.map { cassette in cassette.file.flatMap { file in folder.flatMap { Self.name(of: file, in: $0) } } ?? cassette.name }
    }

    /// The name a test and `PUT /__mockserver/cassettes` give `file`: its path under `folder` without `.json`;
    /// `nil` when it is not under it.
    static func name(of file: URL, in folder: URL) -> String? {
        let root = folder.standardizedFileURL.path
        var path = file.standardizedFileURL.path
        guard path.hasPrefix(root + "/") else { return nil }
        path.removeFirst(root.count + 1)
        return path.hasSuffix(".json") ? String(path.dropLast(5)) : path
    }

    /// How many interactions the cassettes served hold, the in-code cassette's included.
    package var interactionCount: Int {
        preparedCassettes.reduce(0) { $0 + $1.count }
    }

    /// Every interaction of the cassettes served, in cassette then interaction order, as the journal names them.
    var interactions: [InteractionReference] {
        preparedCassettes.flatMap { cassette in (0..<cassette.count).map(cassette.reference) }
    }

    /// Answers `request` (parsed as `parts`): the next recorded response, stream (timed as `streamTiming` says)
    /// or transport failure of the matching interactions, or the near miss and its 404. Synchronous and
    /// thread-safe: takes the engine's lock once.
    ///
    /// A `HEAD` that matches no recorded `HEAD` is answered as HTTP defines it (RFC 9110 §9.3.2): by the
    /// `GET` the same request would get, whose head the server sends without the body. It only looks: the
    /// `GET`'s sequence does not advance, so a later `GET` gets the same answer. Recording modes pass
    /// `headFromGET: false`, so that such a `HEAD` is forwarded and recorded as the upstream answers it.
    func answer(
        _ request: HTTPRequest, parts: RequestParts, headFromGET: Bool = true,
        streamTiming: StreamTiming = .recorded
    ) -> ReplayAnswer {
        // Under the lock: the selection, or (rarely) the index to explain from why nothing answers.
        let (selection, unmatchedIn): (Selection?, ReplayIndex?) = state.withLock { state in
            var candidates = state.index.lookup(request, parts: parts)
            var advancing = true
            if candidates.isEmpty, headFromGET, parts.method == "HEAD" {
                candidates = state.index.lookup(Self.getRequest(for: request), parts: parts.asGET)
                advancing = false
            }
            guard !candidates.isEmpty else { return (nil, state.index) }
            let selection = ReplayEngine.select(
                from: candidates, groups: state.index.groups, uses: &state.uses, served: &state.served,
                cassettes: state.index.cassettes, advancing: advancing)
            // A HEAD answered by a used-up GET is a request nothing answers, reported as its own.
            if !advancing, case .usedUp = selection { return (nil, state.index) }
            return (selection, nil)
        }
        switch selection {
        case .serve(let cassette, let member, let isRepeat)?:
            let prepared = cassette.replies[member]
            if case .webSocket(let conversation) = prepared {
                return Self.conversationAnswer(
                    request, conversation: conversation, cassette: cassette, member: member, isRepeat: isRepeat, timing: streamTiming)
            }
            return ReplayAnswer(matched: cassette.matches[member], isRepeat: isRepeat, reply: prepared.reply(timing: streamTiming))
        case .usedUp(let cassette, let members)?:
            return ReplayAnswer(
                unmatched: NearMiss(
                    method: request.method, target: request.target, operations: GraphQLRequest.operationNames(of: parts.body), closest: nil,
                    differences: [],
                    usedUp: members.map(cassette.reference)))
        case nil:
            return ReplayAnswer(unmatched: (unmatchedIn ?? ReplayIndex()).nearMiss(for: request, parts: parts))
        }
    }

    /// ``answer(_:parts:headFromGET:streamTiming:)`` for a request not parsed yet.
    package func answer(_ request: HTTPRequest, headFromGET: Bool = true) -> ReplayAnswer {
        answer(request, parts: RequestParts(received: request), headFromGET: headFromGET)
    }

    /// The near miss of `request` (parsed as `parts`) when no recorded interaction could answer it, as
    /// ``answer(_:parts:headFromGET:streamTiming:)`` would report it, leaving every sequence where it is; `nil`
    /// when one could (used up or not). For a fault that replaces the answer without replaying it, so that
    /// strict mode still sees an unrecorded request. Takes the engine's lock once.
    func nearMissIfUnrecorded(_ request: HTTPRequest, parts: RequestParts) -> NearMiss? {
        let unrecorded: ReplayIndex? = state.withLock { state in
            guard state.index.lookup(request, parts: parts).isEmpty else { return nil }
            if parts.method == "HEAD", !state.index.lookup(Self.getRequest(for: request), parts: parts.asGET).isEmpty { return nil }
            return state.index
        }
        return unrecorded?.nearMiss(for: request, parts: parts)
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
                let inCode = LoadedCassette(Cassette(name: ReplayEngine.inCodeCassetteName, origin: .handWritten))
                let ordinal = state.index.cassettes.count
                cassette = state.index.add(PreparedCassette(inCode, ordinal: ordinal, number: firstNumber + ordinal, rank: -1, options: options))
                state.inCodeCassette = cassette
            }
            state.index.append(interaction, toCassette: cassette)
            state.uses += Array(repeating: 0, count: state.index.groups.count - state.uses.count)
        }
    }

    /// The response of the service-level error template `name` (for `service-error=NAME` faults), ready to
    /// send: from the cassette named `cassette` when given, else from the first cassette that has one.
    func errorTemplate(named name: String, inCassette cassette: String? = nil) -> HTTPResponse? {
        let byRank = preparedCassettes.sorted { $0.rank < $1.rank }
        for prepared in byRank where cassette == nil || prepared.name == cassette {
            if let template = prepared.metadata.errorTemplates[name] { return template.replayResponse }
        }
        return nil
    }
}

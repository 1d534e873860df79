/// What a ``CassetteIndex`` needs of each cassette it indexes: its recorded requests and how they are compared.
/// The engine's ``PreparedCassette`` is one; the index is generic over it so that matching names nothing of the
/// engine above it (``ReplayIndex`` is the engine's index).
protocol IndexedCassette: AnyObject, Sendable {
    /// Its position among the cassettes of the index.
    var ordinal: Int { get }
    /// Lower ranks are consulted first when several cassettes match.
    var rank: Int { get }
    var rules: PreparedRules { get }
    var matcher: RequestMatcher? { get }
    /// Whether a request without query and body can be matched without parsing it.
    var plainLookup: Bool { get }
    var requests: [RecordedRequest] { get }
    /// The reference of its interaction at `member`.
    func reference(_ member: Int) -> InteractionReference
    /// The cassette with `interaction` appended.
    func appending(_ interaction: Interaction) -> Self
}

/// The lookup structure behind ``ReplayEngine``: interactions bucketed by method and normalized path, then
/// hashed by their ``NormalizedRequest`` within each ``WildcardShape``. Interactions with equal keys form a
/// *group*, the unit that replays in recorded order. Append-only, so group ids stay valid as it grows.
struct CassetteIndex<Prepared: IndexedCassette>: Sendable {
    /// Interactions (indices into one cassette) that match exactly the same requests, in recorded order.
    /// Most groups hold one interaction, which then needs no array of its own.
    struct Group: Sendable {
        let cassette: Int
        let first: Int
        var rest: [Int] = []

        var count: Int { 1 + rest.count }
        var last: Int { rest.last ?? first }
        func member(_ position: Int) -> Int { position == 0 ? first : rest[position - 1] }
        var members: [Int] { [first] + rest }
    }

    struct ShapeTable: Sendable {
        let shape: WildcardShape
        var groups: [NormalizedRequest: Int]
    }

    /// One cassette's share of a bucket.
    struct BucketEntry: Sendable {
        let cassette: Int
        var tables: [ShapeTable] = []
        /// Every group of this entry in creation order (deterministic, unlike dictionary order).
        var groupOrder: [Int] = []
        /// The group of recorded requests with no query, no body and (the cassette matching no headers) nothing
        /// else to compare: the only group a request without query and body can match, found without hashing.
        var plainGroup: Int?
    }

    /// A group matching a request, and its cassette.
    struct Candidate: Sendable, Equatable {
        let cassette: Int
        let group: Int
        /// The positions of the group's members whose ``DecidingHeaders`` agree best with the request's (see
        /// ``HeaderSplit``); `nil` when the members do not differ in any, so that all of them answer in turn.
        var preferred: [Int]? = nil
    }

    /// The groups matching a request, cassettes in precedence order. Nearly always one, held inline, so that a
    /// lookup allocates no array.
    struct Candidates: RandomAccessCollection, Sendable {
        private var first: Candidate?
        private var rest: [Candidate] = []

        init() {}

        var startIndex: Int { 0 }
        var endIndex: Int { first == nil ? 0 : 1 + rest.count }
        subscript(position: Int) -> Candidate { position == 0 ? first! : rest[position - 1] }

        mutating func append(_ candidate: Candidate) {
            if first == nil { first = candidate } else { rest.append(candidate) }
        }
    }

    private(set) var cassettes: [Prepared] = []
    private(set) var buckets: [BucketKey: [BucketEntry]] = [:]
    /// Buckets in creation order, for a bounded, deterministic near-miss search.
    private(set) var bucketOrder: [BucketKey] = []
    /// Buckets by normalized path, to find the same path under another method.
    private(set) var bucketsByPath: [String: [BucketKey]] = [:]
    private(set) var groups: [Group] = []
    /// How the members of each group of more than one differ in headers that pick an answer, by group: out of
    /// ``Group``, which stays three words for the many groups of one.
    private(set) var splits: [Int: HeaderSplit] = [:]

    /// Adds a prepared cassette, whose ordinal must be the number of cassettes already added. Returns it.
    @discardableResult
    mutating func add(_ prepared: Prepared) -> Int {
        precondition(prepared.ordinal == cassettes.count, "a prepared cassette is added at its own ordinal")
        cassettes.append(prepared)
        for (index, request) in prepared.requests.enumerated() {
            insert(
                request, index: index, cassette: prepared.ordinal, rank: prepared.rank, rules: prepared.rules,
                customMatcher: prepared.matcher != nil)
        }
        return prepared.ordinal
    }

    /// Appends one interaction to the cassette at `ordinal` (copying that cassette's arrays) and indexes it.
    mutating func append(_ interaction: Interaction, toCassette ordinal: Int) {
        let prepared = cassettes[ordinal].appending(interaction)
        cassettes[ordinal] = prepared
        let index = prepared.requests.count - 1
        insert(
            prepared.requests[index], index: index, cassette: ordinal, rank: prepared.rank, rules: prepared.rules,
            customMatcher: prepared.matcher != nil)
    }

    private mutating func insert(
        _ request: RecordedRequest, index: Int, cassette ordinal: Int, rank: Int, rules: PreparedRules,
        customMatcher: Bool
    ) {
        let parts = RequestParts(recorded: request)
        let bucketKey = parts.bucketKey
        var entries = buckets.removeValue(forKey: bucketKey) ?? []
        if entries.isEmpty {
            bucketOrder.append(bucketKey)
            bucketsByPath[bucketKey.path, default: []].append(bucketKey)
        }
        let position: Int
        if let existing = entries.firstIndex(where: { $0.cassette == ordinal }) {
            position = existing
        } else {
            // Entries stay in precedence order: lower rank first, then earlier cassette.
            position = entries.firstIndex { rankOf($0.cassette) > rank } ?? entries.endIndex
            entries.insert(BucketEntry(cassette: ordinal), at: position)
        }

        if customMatcher {
            // A custom matcher judges each interaction on its own: every one is its own group.
            entries[position].groupOrder.append(newGroup(cassette: ordinal, member: index))
        } else {
            let normalized = NormalizedRequest(parts, rules: rules)
            let shape = WildcardShape(recorded: normalized)
            let table: Int
            if let existing = entries[position].tables.firstIndex(where: { $0.shape == shape }) {
                table = existing
            } else {
                entries[position].tables.append(ShapeTable(shape: shape, groups: [:]))
                table = entries[position].tables.count - 1
            }
            if let group = entries[position].tables[table].groups[normalized] {
                groups[group].rest.append(index)
                let values = DecidingHeaders.values(of: request.headers)
                if splits[group] == nil {
                    let first = cassettes[ordinal].requests[groups[group].first]
                    splits[group] = HeaderSplit(DecidingHeaders.values(of: first.headers), values)
                } else {
                    splits[group]!.append(values)
                }
            } else {
                let group = newGroup(cassette: ordinal, member: index)
                entries[position].tables[table].groups[normalized] = group
                entries[position].groupOrder.append(group)
                if rules.headers.isEmpty, normalized.isPlain { entries[position].plainGroup = group }
            }
        }
        buckets[bucketKey] = entries
    }

    /// The rank of an added cassette; only asked about cassettes already in ``cassettes``.
    private func rankOf(_ ordinal: Int) -> Int {
        ordinal < cassettes.count ? cassettes[ordinal].rank : Int.max
    }

    private mutating func newGroup(cassette: Int, member: Int) -> Int {
        groups.append(Group(cassette: cassette, first: member))
        return groups.count - 1
    }

    /// The groups matching `request` (parsed as `parts`), as the engine looks them up. Most requests of a
    /// typical API have no query and no body: past their bucket they are not normalized or hashed at all. Others
    /// go through ``candidates(for:parts:)``.
    func lookup(_ request: HTTPRequest, parts: RequestParts) -> Candidates {
        guard let entries = buckets[parts.bucketKey] else { return Candidates() }
        if parts.isPlain, let plain = plainCandidates(in: entries, headers: parts.headers) { return plain }
        return candidates(in: entries, for: request, parts: parts)
    }

    /// The groups matching `request`, cassettes in precedence order: one hash probe per shape for
    /// rule-based cassettes, a walk of the bucket for cassettes with a custom matcher. Within a rule-based
    /// cassette, when recordings that carried ``RequestConditions`` match, those that carried none are left out.
    func candidates(for request: HTTPRequest, parts: RequestParts) -> Candidates {
        guard let entries = buckets[parts.bucketKey] else { return Candidates() }
        return candidates(in: entries, for: request, parts: parts)
    }

    /// The groups of `entries` (a bucket) matching `request`; see ``candidates(for:parts:)``.
    func candidates(in entries: [BucketEntry], for request: HTTPRequest, parts: RequestParts) -> Candidates {
        var result = Candidates()
        for entry in entries.indices {
            let ordinal = entries[entry].cassette
            let cassette = cassettes[ordinal]
            if let matcher = cassette.matcher {
                for group in entries[entry].groupOrder where matcher.matches(cassette.requests[groups[group].first], request) {
                    result.append(Candidate(cassette: ordinal, group: group))
                }
            } else {
                let normalized = NormalizedRequest(parts, rules: cassette.rules)
                // Recordings that carried the request's conditions (its `Range`, say) answer it before those that
                // did not: a ranged read is not served the whole body while its range was recorded.
                let tables = entries[entry].tables
                var conditionsMatched = false
                if !normalized.conditions.isEmpty {
                    for table in tables.indices where !tables[table].shape.conditions.isEmpty {
                        if let group = Self.group(matching: normalized, in: tables[table]) {
                            result.append(candidate(ordinal, group, headers: parts.headers))
                            conditionsMatched = true
                        }
                    }
                }
                // A request without conditions cannot match a recording that carried some.
                for table in tables.indices where !conditionsMatched && tables[table].shape.conditions.isEmpty {
                    if let group = Self.group(matching: normalized, in: tables[table]) {
                        result.append(candidate(ordinal, group, headers: parts.headers))
                    }
                }
            }
        }
        return result
    }

    /// `group` of cassette `ordinal` as the candidate of a request with `headers`.
    private func candidate(_ ordinal: Int, _ group: Int, headers: HTTPHeaders) -> Candidate {
        guard !groups[group].rest.isEmpty else { return Candidate(cassette: ordinal, group: group) }
        return Candidate(cassette: ordinal, group: group, preferred: splits[group]?.preferredPositions(for: headers))
    }

    /// The group of `table` that `normalized` (a received request) matches, if any.
    private static func group(matching normalized: NormalizedRequest, in table: ShapeTable) -> Int? {
        guard let key = table.shape.apply(to: normalized) else { return nil }
        return table.groups[key]
    }

    /// The groups of `entries` matching a request without query, body and conditions, without parsing or hashing it; `nil`
    /// when a cassette of the bucket compares headers or has a custom matcher, which only the full lookup decides.
    private func plainCandidates(in entries: [BucketEntry], headers: HTTPHeaders) -> Candidates? {
        var result = Candidates()
        // By position: copying an entry would retain its arrays.
        for position in entries.indices {
            let ordinal = entries[position].cassette
            guard cassettes[ordinal].plainLookup else { return nil }
            if let group = entries[position].plainGroup { result.append(candidate(ordinal, group, headers: headers)) }
        }
        return result
    }
}

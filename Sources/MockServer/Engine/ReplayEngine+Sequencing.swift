extension ReplayEngine {
    /// What sequencing decided.
    enum Selection {
        /// Serve this member of this cassette.
        case serve(PreparedCassette, member: Int, isRepeat: Bool)
        /// Every match was used and the policy is `fail`; lists (at most ten of) the matched members.
        case usedUp(PreparedCassette, members: [Int])
    }

    /// Picks the interaction to serve and, when `advancing`, advances its group (otherwise it only looks, and
    /// leaves `uses` as it was). Runs under the engine's lock: no parsing, and no allocation except for the rare
    /// used-up list.
    ///
    /// `candidates` are grouped by cassette in precedence order. The first cassette with an unused matching
    /// interaction serves its earliest one. When all are used, the first matching cassette's policy decides:
    /// `repeat` serves its latest matching interaction again, `cycle` restarts its matching groups, `fail`
    /// reports them used up (policies are the `cassettes`'). Shadowing cassettes (negative rank: the in-code one)
    /// answer alone whatever they match, so a stub added in code overrides the cassettes instead of taking turns
    /// with them.
    ///
    /// A group whose members differ in headers that pick an answer (see ``HeaderSplit``) is sequenced over the
    /// members its candidate prefers: each served member is marked in `served` (created from the group's count
    /// in `uses` the first time), and the policies apply to those members alone.
    static func select(
        from candidates: ReplayIndex.Candidates,
        groups: [ReplayIndex.Group],
        uses: inout [Int],
        served: inout [Int: [Bool]],
        cassettes: [PreparedCassette],
        advancing: Bool = true
    ) -> Selection {
        var start = 0
        let shadowing = cassettes[candidates[0].cassette].rank < 0
        let searched = shadowing ? candidates.prefix { $0.cassette == candidates[0].cassette }.count : candidates.count
        while start < searched {
            let cassette = candidates[start].cassette
            var end = start
            var best: (candidate: Int, position: Int)?
            var bestMember = Int.max
            while end < searched, candidates[end].cassette == cassette {
                if let position = nextPosition(of: candidates[end], groups: groups, uses: uses, served: served) {
                    let member = groups[candidates[end].group].member(position)
                    if member < bestMember {
                        best = (end, position)
                        bestMember = member
                    }
                }
                end += 1
            }
            if let best {
                if advancing { markServed(candidates[best.candidate], position: best.position, groups: groups, uses: &uses, served: &served) }
                return .serve(cassettes[cassette], member: bestMember, isRepeat: false)
            }
            start = end
        }
        let cassette = candidates[0].cassette
        let first = candidates.prefix { $0.cassette == cassette }
        switch cassettes[cassette].policy {
        case .repeat:
            var latest = -1
            for candidate in first { latest = max(latest, lastMember(of: candidate, groups: groups)) }
            return .serve(cassettes[cassette], member: latest, isRepeat: true)
        case .cycle:
            var best = first[first.startIndex]
            for candidate in first {
                if advancing { restart(candidate, groups: groups, uses: &uses, served: &served) }
                if firstMember(of: candidate, groups: groups) < firstMember(of: best, groups: groups) { best = candidate }
            }
            if advancing { markServed(best, position: best.preferred?.first ?? 0, groups: groups, uses: &uses, served: &served) }
            return .serve(cassettes[cassette], member: firstMember(of: best, groups: groups), isRepeat: true)
        case .fail:
            let usedUp = first.flatMap { members(of: $0, groups: groups) }.sorted()
            return .usedUp(cassettes[cassette], members: Array(usedUp.prefix(10)))
        }
    }

    // The repeat and cycle policies run under the engine's lock for every request past a sequence's end: they
    // read the first or last member in place, never building the list.

    /// The earliest member a candidate may be answered by.
    private static func firstMember(of candidate: ReplayIndex.Candidate, groups: [ReplayIndex.Group]) -> Int {
        let group = groups[candidate.group]
        return candidate.preferred.map { group.member($0[0]) } ?? group.first
    }

    /// The latest member a candidate may be answered by.
    private static func lastMember(of candidate: ReplayIndex.Candidate, groups: [ReplayIndex.Group]) -> Int {
        let group = groups[candidate.group]
        return candidate.preferred.map { group.member($0[$0.count - 1]) } ?? group.last
    }

    /// The members a candidate may be answered by, in recorded order: the preferred ones, or all of its group's.
    private static func members(of candidate: ReplayIndex.Candidate, groups: [ReplayIndex.Group]) -> [Int] {
        let group = groups[candidate.group]
        return candidate.preferred.map { $0.map(group.member) } ?? group.members
    }

    /// The position in its group of the member to serve next for `candidate`; `nil` when all of its members are used.
    private static func nextPosition(
        of candidate: ReplayIndex.Candidate, groups: [ReplayIndex.Group], uses: [Int], served: [Int: [Bool]]
    ) -> Int? {
        let group = candidate.group
        guard let preferred = candidate.preferred else { return uses[group] < groups[group].count ? uses[group] : nil }
        guard let flags = served[group] else { return preferred.first { $0 >= uses[group] } }
        return preferred.first { !flags[$0] }
    }

    private static func markServed(
        _ candidate: ReplayIndex.Candidate, position: Int, groups: [ReplayIndex.Group], uses: inout [Int],
        served: inout [Int: [Bool]]
    ) {
        let group = candidate.group
        guard candidate.preferred != nil else {
            uses[group] = position + 1
            return
        }
        var flags = served[group] ?? (0..<groups[group].count).map { $0 < uses[group] }
        flags[position] = true
        served[group] = flags
    }

    private static func restart(
        _ candidate: ReplayIndex.Candidate, groups: [ReplayIndex.Group], uses: inout [Int], served: inout [Int: [Bool]]
    ) {
        let group = candidate.group
        guard let preferred = candidate.preferred else {
            uses[group] = 0
            return
        }
        var flags = served[group] ?? (0..<groups[group].count).map { $0 < uses[group] }
        for position in preferred { flags[position] = false }
        served[group] = flags
    }
}

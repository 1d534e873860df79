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
    static func select(
        from candidates: ReplayIndex.Candidates,
        groups: [ReplayIndex.Group],
        uses: inout [Int],
        cassettes: [PreparedCassette],
        advancing: Bool = true
    ) -> Selection {
        var start = 0
        let shadowing = cassettes[candidates[0].cassette].rank < 0
        let searched = shadowing ? candidates.prefix { $0.cassette == candidates[0].cassette }.count : candidates.count
        while start < searched {
            let cassette = candidates[start].cassette
            var end = start
            var best = -1
            var bestMember = Int.max
            while end < searched, candidates[end].cassette == cassette {
                let group = candidates[end].group
                if uses[group] < groups[group].count {
                    let member = groups[group].member(uses[group])
                    if member < bestMember {
                        best = group
                        bestMember = member
                    }
                }
                end += 1
            }
            if best >= 0 {
                if advancing { uses[best] += 1 }
                return .serve(cassettes[cassette], member: bestMember, isRepeat: false)
            }
            start = end
        }
        let cassette = candidates[0].cassette
        let first = candidates.prefix { $0.cassette == cassette }
        switch cassettes[cassette].policy {
        case .repeat:
            var latest = -1
            for candidate in first { latest = max(latest, groups[candidate.group].last) }
            return .serve(cassettes[cassette], member: latest, isRepeat: true)
        case .cycle:
            var best = first[first.startIndex].group
            for candidate in first {
                if advancing { uses[candidate.group] = 0 }
                if groups[candidate.group].first < groups[best].first { best = candidate.group }
            }
            if advancing { uses[best] = 1 }
            return .serve(cassettes[cassette], member: groups[best].first, isRepeat: true)
        case .fail:
            let members = first.flatMap { groups[$0.group].members }.sorted()
            return .usedUp(cassettes[cassette], members: Array(members.prefix(10)))
        }
    }
}

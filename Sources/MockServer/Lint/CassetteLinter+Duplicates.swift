extension CassetteLinter {
    /// An interaction that repeats an earlier one to no effect.
    struct Duplicate: Sendable, Hashable {
        /// The redundant interaction.
        package let index: Int
        /// The earlier interaction it repeats.
        let original: Int

        /// Creates a report that interaction `index` repeats interaction `original`.
        init(index: Int, original: Int) {
            self.index = index
            self.original = original
        }
    }

    /// The interactions of `cassette` that replay never needs.
    ///
    /// Requests that replay treats as the same (the groups ``ReplayEngine`` forms under the cassette's match
    /// rules) replay their outcomes in recorded order, then follow the cassette's `afterLast` policy. An
    /// interaction is redundant when dropping it leaves that sequence of answers unchanged:
    /// - `repeat` (the default): the trailing run of identical outcomes; all but the run's first are redundant
    ///   (`pending, pending, done` is a real sequence; `done, done` at the end is one `done`).
    /// - `cycle`: only when every outcome of the group is identical; all but the first are redundant.
    /// - `fail`: never, since each repeat allows one more call.
    ///
    /// Members of a group that differ in headers that pick an answer (``HeaderSplit``) answer different requests:
    /// only those with the same values are compared.
    static func duplicates(in cassette: Cassette) -> [Duplicate] {
        var index = ReplayIndex()
        index.add(cassette, rank: 0, options: ReplayOptions())
        let policy = cassette.matching.afterLast ?? .repeat
        var found: [Duplicate] = []
        for (id, group) in index.groups.enumerated() where group.count > 1 {
            for members in sameAnswerMembers(of: group, split: index.splits[id]) where members.count > 1 {
                found += duplicates(among: members, of: cassette, policy: policy)
            }
        }
        return found.sorted { $0.index < $1.index }
    }

    /// The group's members split by their deciding header values, each list in recorded order.
    private static func sameAnswerMembers(of group: ReplayIndex.Group, split: HeaderSplit?) -> [[Int]] {
        guard let split, !split.names.isEmpty else { return [group.members] }
        var lists: [[String?]: [Int]] = [:]
        var order: [[String?]] = []
        for (position, member) in group.members.enumerated() {
            let signature = split.signature(ofMemberAt: position)
            if lists[signature] == nil { order.append(signature) }
            lists[signature, default: []].append(member)
        }
        return order.map { lists[$0]! }
    }

    /// The redundant ones among `members`, interactions that replay as one sequence.
    private static func duplicates(among members: [Int], of cassette: Cassette, policy: AfterLastPolicy) -> [Duplicate] {
        let outcomes = members.map { cassette.interactions[$0].outcome }
        var runStart = members.count - 1
        while runStart > 0, outcomes[runStart - 1] == outcomes[members.count - 1] {
            runStart -= 1
        }
        switch policy {
        case .repeat:
            break
        case .cycle:
            guard runStart == 0 else { return [] }
        case .fail:
            return []
        }
        return ((runStart + 1)..<members.count).map { Duplicate(index: members[$0], original: members[runStart]) }
    }
}

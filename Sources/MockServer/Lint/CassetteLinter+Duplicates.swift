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
    static func duplicates(in cassette: Cassette) -> [Duplicate] {
        var index = ReplayIndex()
        index.add(cassette, rank: 0, options: ReplayOptions())
        let policy = cassette.matching.afterLast ?? .repeat
        var found: [Duplicate] = []
        for group in index.groups where group.count > 1 {
            let members = group.members
            let outcomes = members.map { cassette.interactions[$0].outcome }
            var runStart = members.count - 1
            while runStart > 0, outcomes[runStart - 1] == outcomes[members.count - 1] {
                runStart -= 1
            }
            switch policy {
            case .repeat:
                break
            case .cycle:
                guard runStart == 0 else { continue }
            case .fail:
                continue
            }
            for position in (runStart + 1)..<members.count {
                found.append(Duplicate(index: members[position], original: members[runStart]))
            }
        }
        return found.sorted { $0.index < $1.index }
    }
}

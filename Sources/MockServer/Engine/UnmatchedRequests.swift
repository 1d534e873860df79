import ServiceReplayShared

/// The near-miss reports of a server's unmatched requests, kept apart from the journal so that strict mode
/// sees every unmatched request whatever the journal drops or keeps. Bounded: the first ``keptLimit``
/// reports are kept, later ones only counted.
final class UnmatchedRequests: Sendable {
    /// How many reports are kept.
    static let keptLimit = 100

    private struct Storage {
        var kept: [NearMiss] = []
        var count = 0
    }

    private let storage = Lock(Storage())

    func append(_ nearMiss: NearMiss) {
        storage.withLock { storage in
            storage.count += 1
            if storage.kept.count < UnmatchedRequests.keptLimit { storage.kept.append(nearMiss) }
        }
    }

    /// The kept reports in arrival order, and how many requests went unmatched in all.
    var snapshot: (kept: [NearMiss], count: Int) {
        storage.withLock { ($0.kept, $0.count) }
    }

    /// Forgets every report and the count.
    func reset() {
        storage.withLock { $0 = Storage() }
    }
}

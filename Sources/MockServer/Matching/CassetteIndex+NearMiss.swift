extension CassetteIndex {
    /// At most this many recorded interactions are compared in full when looking for the closest one.
    static var nearMissCandidateLimit: Int { 1_000 }
    /// At most this many buckets are scored by path when the request's own path has none.
    static var nearMissBucketScanLimit: Int { 10_000 }

    /// The closest recorded interaction to an unmatched request and how it differs. The search is bounded:
    /// the request's own method-and-path bucket first, then the same path under other methods, then the few
    /// buckets whose paths are closest segment by segment.
    func nearMiss(for request: HTTPRequest, parts: RequestParts) -> NearMiss {
        var bestReference: InteractionReference?
        var bestDifferences: [RequestDifference] = []
        var bestWeight = Int.max
        var compared = 0
        outer: for key in nearMissBuckets(for: parts) {
            for entry in buckets[key] ?? [] {
                let prepared = cassettes[entry.cassette]
                for group in entry.groupOrder {
                    guard compared < Self.nearMissCandidateLimit else { break outer }
                    compared += 1
                    let member = groups[group].first
                    let recorded = prepared.requests[member]
                    var differences = RequestComparison.differences(
                        recorded: RequestParts(recorded: recorded), received: parts,
                        rules: prepared.rules)
                    if prepared.matcher != nil, differences.isEmpty {
                        differences = [
                            RequestDifference(
                                "custom matcher", recorded: nil, received: nil, weight: 1,
                                description: "custom matcher: rejected the request")
                        ]
                    }
                    let weight = differences.reduce(0) { $0 + $1.weight }
                    if weight < bestWeight {
                        bestWeight = weight
                        bestDifferences = differences
                        bestReference = prepared.reference(member)
                    }
                }
            }
        }
        return NearMiss(
            method: request.method, target: request.target, operations: GraphQLRequest.operationNames(of: parts.body), closest: bestReference,
            differences: bestDifferences)
    }

    /// The buckets worth comparing against, best first.
    private func nearMissBuckets(for parts: RequestParts) -> [BucketKey] {
        if buckets[parts.bucketKey] != nil { return [parts.bucketKey] }
        if let samePath = bucketsByPath[parts.path] { return samePath }
        let wanted = parts.path.split(separator: "/", omittingEmptySubsequences: false)
        var scored: [(score: Int, position: Int)] = []
        for (position, key) in bucketOrder.prefix(Self.nearMissBucketScanLimit).enumerated() {
            let segments = key.path.split(separator: "/", omittingEmptySubsequences: false)
            var distance = abs(segments.count - wanted.count)
            for (left, right) in zip(segments, wanted) where left != right { distance += 1 }
            scored.append((distance * 2 + (key.method == parts.method ? 0 : 1), position))
        }
        scored.sort { ($0.score, $0.position) < ($1.score, $1.position) }
        return scored.prefix(3).map { bucketOrder[$0.position] }
    }
}

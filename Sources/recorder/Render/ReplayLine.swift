import MockServer

/// The line `recorder replay` prints for each request: `GET /users?since=0 → 200 github-users interaction 0`.
/// The target is shown redacted by the default rules, as a cassette holds it (`?X-Amz-Signature=%3Credacted%3E`).
enum ReplayLine {
    static func text(for entry: JournalEntry) -> String {
        // Redacted as cassettes are: a presigned URL's signature never reaches a terminal or a CI log.
        let request = "\(entry.request.method) \(RedactionRules.default.redact(target: entry.request.target))"
        let outcome = entry.outcome
        switch outcome.kind {
        case .matched:
            let status = outcome.status.map { "\($0) " } ?? ""
            return "\(request) → \(status)\(outcome)"
        case .unmatched:
            guard let nearMiss = outcome.nearMiss else { return "\(request) → 404 unmatched" }
            if let used = nearMiss.usedUp.first {
                return "\(request) → 404 unmatched: \(used) was already used (afterLast is fail)"
            }
            guard let closest = nearMiss.closest, let first = nearMiss.differences.first else {
                return "\(request) → 404 unmatched: the cassettes hold no interactions"
            }
            let more = nearMiss.differences.count > 1 ? " (+\(nearMiss.differences.count - 1) more)" : ""
            return "\(request) → 404 unmatched; closest \(closest): \(first)\(more)"
        default:
            return "\(request) → \(outcome)"
        }
    }

    /// The line for a WebSocket conversation that met a client message its recording does not hold:
    /// `GET /chat: message 1 $.say: recorded "hello", received "hi" → closed 1008 (WebSocket, chat interaction 0)`.
    static func text(forConversation nearMiss: NearMiss) -> String {
        let request = "\(nearMiss.method) \(RedactionRules.default.redact(target: nearMiss.target))"
        let difference = nearMiss.differences.first.map { "\($0)" } ?? "a message the recording does not hold"
        let more = nearMiss.differences.count > 1 ? " (+\(nearMiss.differences.count - 1) more)" : ""
        let place = nearMiss.closest.map { ", \($0.cassette) interaction \($0.index)" } ?? ""
        return "\(request): \(difference)\(more) → closed 1008 (WebSocket\(place))"
    }
}

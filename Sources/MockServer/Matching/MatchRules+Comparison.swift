extension MatchRules {
    /// Whether `received` matches `recorded` under these rules, exactly as a replaying server decides: same
    /// method and path, query fields (order-insensitive, repeats counted), the chosen headers and the body
    /// (JSON by value, form fields, multipart parts), with ignored fields left out and redaction placeholders
    /// in `recorded` matching anything, and the `Range`, `x-ms-range`, `If-Range` (by value) and `If-None-Match` or
    /// `If-Modified-Since` (by presence) that `recorded` carried. (When both match, the engine prefers a
    /// recording that carried the request's `Range` or conditional headers to one that did not.) Useful inside
    /// a custom ``CassetteServer/Configuration/matcher`` that adds a condition.
    public func matches(_ recorded: RecordedRequest, _ received: HTTPRequest) -> Bool {
        let left = RequestParts(recorded: recorded)
        let right = RequestParts(received: received)
        guard left.bucketKey == right.bucketKey else { return false }
        let rules = PreparedRules(self)
        return RequestComparison.matches(
            recorded: NormalizedRequest(left, rules: rules),
            received: NormalizedRequest(right, rules: rules))
    }

    /// Every difference between `recorded` and `received` under these rules; empty exactly when they match.
    package func differences(between recorded: RecordedRequest, and received: HTTPRequest) -> [RequestDifference] {
        RequestComparison.differences(
            recorded: RequestParts(recorded: recorded), received: RequestParts(received: received),
            rules: PreparedRules(self))
    }
}

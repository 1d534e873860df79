import Foundation

/// Why a request went unanswered: the closest recorded interaction and every difference from it, or the
/// interactions it did match that were already used up (with `afterLast: fail`).
///
/// ``description`` is the multi-line text a strict-mode test fails with; the server answers the request with a
/// 404 whose JSON body carries the same text and facts, and an `X-MockServer-Unmatched: 1` header.
public struct NearMiss: Sendable, CustomStringConvertible {
    /// Differences listed in ``description`` before the rest are summarized as `… and N more`.
    public static let listedDifferenceLimit = 20

    /// The received request's method.
    public let method: String
    /// The received request's target.
    public let target: String
    /// The closest recorded interaction, or `nil` when the cassettes hold none or the match was used up.
    public let closest: InteractionReference?
    /// How the request differs from ``closest``, most telling first (method, path, query, headers, body).
    package let differences: [RequestDifference]
    /// Interactions the request matched that had all been used (afterLast is `fail`); empty otherwise.
    public let usedUp: [InteractionReference]
    /// The received request's GraphQL operations (one, or several for a batch), named in ``description``;
    /// empty when it is not a GraphQL request or its operations are anonymous.
    public let operations: [String]

    /// Creates a near miss.
    init(
        method: String, target: String, operations: [String] = [], closest: InteractionReference?, differences: [RequestDifference],
        usedUp: [InteractionReference] = []
    ) {
        self.method = method
        self.target = target
        self.operations = operations
        self.closest = closest
        self.differences = differences
        self.usedUp = usedUp
    }

    /// The human-readable report, for example:
    ///
    /// ```
    /// No recorded interaction matches GET /users?since=1.
    /// Closest: github-users interaction 3 (GET /users?since=0), which differs in:
    ///   query since: recorded "0", received "1"
    /// ```
    ///
    /// A GraphQL request is named with its operation: `No recorded interaction matches POST /graphql (GraphQL
    /// User).`, and a variable that differs by its path: `$.variables.login: recorded "octocat", received "hubot"`.
    public var description: String {
        var request = "\(method) \(target)"
        if !operations.isEmpty { request += " (GraphQL \(operations.joined(separator: ", ")))" }
        if usedUp.count == 1 {
            return "\(request) matched \(usedUp[0]), but it was already used and afterLast is fail."
        }
        if usedUp.count > 1 {
            return "\(request) matched \(usedUp.count) recorded interactions, but each was already used and afterLast is fail:\n"
                + usedUp.map { "  \($0)" }.joined(separator: "\n")
        }
        guard let closest else {
            return "No recorded interaction matches \(request); the cassettes hold no interactions."
        }
        var lines = ["No recorded interaction matches \(request).", "Closest: \(closest), which differs in:"]
        lines += differences.prefix(NearMiss.listedDifferenceLimit).map { "  \($0)" }
        if differences.count > NearMiss.listedDifferenceLimit {
            lines.append("  … and \(differences.count - NearMiss.listedDifferenceLimit) more differences")
        }
        let fresh = differences.filter(\.isFreshIdentifierInBody).map(\.location)
        if !fresh.isEmpty {
            let paths = fresh.map { "\"\($0)\"" }.joined(separator: ", ")
            lines.append(
                "A UUID that differs in the body is often drawn afresh by the client on each run (a client mutation ID, an idempotency key): if so, leave it out with the cassette's \"matching\": {\"ignoreBodyPaths\": [\(paths)]}."
            )
        }
        return lines.joined(separator: "\n")
    }

    /// The header that marks the 404 answer to an unmatched request, so that a reader of the answer (the
    /// drift check) can tell it from an upstream's own 404.
    package static let unmatchedHeader = "X-MockServer-Unmatched"

    /// The 404 body's facts as JSON: `error`, `message` (the ``description``), `request`, `closest`,
    /// `differences` and, when it applies, `usedUp`. The control API shows the same shape, redacted.
    package func json() -> CassetteJSON {
        var body: [String: CassetteJSON] = [
            "error": "unmatched request",
            "message": .string(description),
            "request": operations.isEmpty
                ? ["method": .string(method), "target": .string(target)]
                : ["method": .string(method), "target": .string(target), "operations": .array(operations.map(CassetteJSON.string))],
            "closest": closest?.json ?? .null,
            "differences": .array(differences.map { .string($0.description) }),
        ]
        if !usedUp.isEmpty { body["usedUp"] = .array(usedUp.map(\.json)) }
        return CassetteJSON.sortedObject(body)
    }

    /// The 404 answer: `X-MockServer-Unmatched: 1` (``unmatchedHeader``) and the JSON body ``json()``.
    package var response: HTTPResponse {
        let bytes = json().serialized(pretty: true) + Data("\n".utf8)
        return HTTPResponse(
            status: 404,
            headers: HTTPHeaders(pairs: [
                ("Content-Type", "application/json; charset=utf-8"),
                (Self.unmatchedHeader, "1"),
                ("Content-Length", String(bytes.count)),
            ]), body: bytes)
    }
}

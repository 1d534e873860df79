import Foundation

/// One call made under a random fault plan: which call, which faults the server injected while it ran, and
/// how it ended (`ok`, or the error's family and case).
struct ChaosRecord: Sendable, Codable, Hashable {
    /// The call's name (`github-user`).
    let call: String
    /// Which repetition of the call, from 1.
    let repetition: Int
    /// The fault rules that fired during the call, in the plan's spelling; empty when none did.
    let faults: [String]
    /// `ok`, or a `WebServiceError.Reason.caseName` such as `network.timedOut` or `service.httpStatus(503)`.
    let outcome: String

    /// The outcome's column in the table: success, a network-level case or a service-level case.
    var column: Column {
        if outcome == "ok" { return .success }
        return outcome.hasPrefix("network.") ? .network : .service
    }

    /// The outcome without its family prefix (`timedOut`, `httpStatus(503)`).
    var caseName: String {
        outcome.split(separator: ".", maxSplits: 1).last.map(String.init) ?? outcome
    }

    /// The three columns of the table.
    enum Column: CaseIterable {
        case success, network, service
    }
}

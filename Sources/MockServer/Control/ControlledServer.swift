import Foundation

/// What the control API reads and changes on the server it belongs to: the server conforms, so that the API,
/// a layer below it, reaches it without naming it, and always sees what is in force now.
protocol ControlledServer: AnyObject, Sendable {
    /// The address the server serves on while running.
    var baseURL: URL? { get }
    /// Every request received.
    var journal: Journal { get }
    /// The near misses of the unmatched requests.
    var unmatched: UnmatchedRequests { get }
    /// The engine in force: after a switch of cassettes the new one; in a recording mode the recording's.
    var engine: ReplayEngine { get }
    /// The fault plan in force, or `nil`.
    var faultPlan: FaultPlan? { get }
    /// Puts `plan` in force from the next request on, or clears it (`nil`); throws, changing nothing, when it
    /// cannot apply.
    func setFaultPlan(_ plan: FaultPlan?) throws(MockServerError)
    /// Replays every sequence from its first answer.
    func resetSequences()
    /// The folder cassettes are switched to by name from, if the server has one.
    var recordingsFolder: URL? { get }
    /// Serves `cassettes` instead from the next request on; throws, changing nothing, when it cannot.
    func replaceCassettes(loaded cassettes: [LoadedCassette]) throws(MockServerError)
}

/// The server a control API steers, held weakly: the server owns the API (through its HTTP handler), not the
/// other way round.
struct ControlledServerReference: Sendable {
    weak var server: (any ControlledServer)?
}

import Foundation

/// A MockServer replaying cassettes over real HTTP on loopback, with an optional fault plan and a journal
/// of every request.
///
/// ```swift
/// let server = try ReplayServer(cassettes: [try Cassette.load(from: url)])
/// let baseURL = try await server.start()      // http://127.0.0.1:PORT
/// ... send requests to baseURL ...
/// try server.journal.verify(.get("/users"), calledTimes: 1)
/// await server.stop()
/// ```
///
/// In tests, ``withMockServer(replaying:in:configuration:filePath:_:)`` does all of this in one line and
/// stops the server when the test's closure returns.
public final class ReplayServer: Sendable {
    /// The configuration the server was created with.
    public let configuration: Configuration
    /// The cassettes' interactions, matched and sequenced.
    public let engine: ReplayEngine
    /// Every request received, with what answered it.
    public let journal: Journal
    /// The fault plan in force, or `nil` when none (the configuration's source gave no plan).
    public let faultPlan: FaultPlan?
    private let handler: ReplayHandler
    private let http: HTTPServer

    /// Creates a server for `cassettes`; nothing is bound until ``start()``.
    /// - Throws: ``FaultPlanError`` when the configuration reads the fault plan from an environment that
    ///   holds an invalid one.
    public init(cassettes: [Cassette], configuration: Configuration = Configuration()) throws(FaultPlanError) {
        self.configuration = configuration
        switch configuration.faults {
        case .none: faultPlan = nil
        case .plan(let plan): faultPlan = plan.rules.isEmpty ? nil : plan
        case .environment: faultPlan = try FaultPlan.fromEnvironment()
        }
        engine = ReplayEngine(cassettes: cassettes, options: configuration.replay)
        journal = Journal(capacity: configuration.journalCapacity)
        handler = ReplayHandler(engine: engine, journal: journal, injector: faultPlan.map(FaultInjector.init),
                                observer: configuration.onRequest)
        http = HTTPServer(configuration: configuration.server, handler: handler)
    }

    /// Binds, listens and returns the base URL once connections are accepted; again while running it
    /// returns the same URL.
    /// - Throws: ``HTTPServerError`` when the address cannot be bound or the server was stopped.
    @discardableResult
    public func start() async throws -> URL {
        try await http.start()
    }

    /// Closes the listener and every connection, stalled ones included. Safe to call more than once.
    public func stop() async {
        await http.stop()
    }

    /// The base URL while running, else `nil`.
    public var baseURL: URL? { http.baseURL }

    /// Adds a hand-written interaction for the odd case; it answers before any cassette does (see
    /// ``ReplayEngine/add(_:)``). Build one with ``Interaction/stub(_:_:status:json:headers:requestBody:requestHeaders:)``.
    public func add(_ interaction: Interaction) {
        engine.add(interaction)
    }

    /// The connections closed on accept by `refuse` faults, in order.
    public var refusedConnections: [FaultDecision] {
        handler.refusals.withLock { $0 }
    }

    /// The near-miss report of every request nothing answered, in arrival order.
    public var unmatchedRequests: [NearMiss] {
        journal.entries.compactMap(\.outcome.nearMiss)
    }

    /// Throws when any request went unmatched, with one sentence and every near-miss report: what strict
    /// mode fails a test with.
    public func verifyNoUnmatchedRequests() throws(ReplayServerError) {
        let misses = unmatchedRequests
        guard !misses.isEmpty else { return }
        let noun = misses.count == 1 ? "request was" : "requests were"
        throw ReplayServerError("\(misses.count) \(noun) not matched by any recorded interaction:\n\n"
            + misses.map(\.description).joined(separator: "\n\n"))
    }

    /// Throws ``JournalAssertionError`` listing the interactions of the server's cassettes that no request used.
    public func verifyEveryInteractionUsed() throws {
        try journal.verifyEveryInteractionUsed(in: engine.cassettes)
    }
}

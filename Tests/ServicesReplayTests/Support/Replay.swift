import Foundation
@testable import MockServer
import ServiceKit
import ServiceKitTesting

/// A running replay server and a ServiceKit client pointed at it.
struct Replay {
    /// The server replaying the cassette; its journal shows what the client sent.
    let server: ReplayServer
    /// A client over URLSession to the server's loopback address.
    let client: WebServiceClient
    /// The client's clock: retries and backoffs are recorded here, never slept.
    let clock: VirtualClock
}

/// How a test's client is set up.
struct ClientOptions: Sendable {
    /// Seconds the client waits for data (`WebServiceClient.Configuration.timeout`). The default is generous
    /// for a loaded machine; a test that expects a stall passes ``ReplayTimeout/stall``.
    var timeout: TimeInterval = ReplayTimeout.answer
    /// Retries; none by default.
    var retryPolicy: RetryPolicy?
    /// Where "now" is; `nil` starts a ``VirtualClock`` at the cassette's `recordedAt`, so rate-limit resets
    /// read as they did when the cassette was recorded.
    var now: Date?
    /// The client's common parameters (the friends token).
    var commonParameters: @Sendable () async -> Parameters = { Parameters() }
}

/// The client timeouts of the suite, in one place.
enum ReplayTimeout {
    /// For calls the server answers: long enough that a loaded machine never times out by accident.
    static let answer: TimeInterval = 30
    /// For calls the server stalls on purpose: short, so a stall ends quickly as `.timedOut`.
    static let stall: TimeInterval = 1.5
}

extension ReplayServer.FaultSource {
    /// A plan from fault specs in the CLI spelling (`"reset,when=first:1"`).
    static func specs(_ specs: String, seed: UInt64 = FaultPlan.defaultSeed) throws -> Self {
        .plan(try FaultPlan.parse(specs: specs, seed: seed))
    }
}

/// Runs `body` with a strict replay server for `cassette` (`github/users`) and a client for it, then stops
/// the server. `faults` has no default on purpose: every test says which plan it runs under, so the CI runs
/// that set `MOCKSERVER_FAULTS` change only the tests that ask for ``ReplayServer/FaultSource/environment``.
/// Strict: a request no interaction answers fails the test with the near-miss report.
func withReplay<T>(_ cassette: String, faults: ReplayServer.FaultSource, client options: ClientOptions = ClientOptions(),
                   _ body: (Replay) async throws -> T) async throws -> T {
    let cassettes = try RecordingsFolder.cassettes(named: cassette, in: Recordings.folder)
    let now = options.now ?? cassettes.first?.recordedAt ?? Date(timeIntervalSinceReferenceDate: 0)
    let configuration = ReplayServer.Configuration(faults: faults, strict: true)
    return try await withMockServer(cassettes: cassettes, configuration: configuration) { server in
        let clock = VirtualClock(now: now)
        let client = try makeClient(for: server, options: options, clock: clock)
        return try await body(Replay(server: server, client: client, clock: clock))
    }
}

/// A client for `server` with its own URLSession (invalidated when the client goes away).
func makeClient(for server: ReplayServer, options: ClientOptions, clock: VirtualClock) throws -> WebServiceClient {
    let baseURL = try server.baseURL.orThrow("the replay server has no base URL: it is not running")
    let configuration = WebServiceClient.Configuration(commonParameters: options.commonParameters, timeout: options.timeout,
                                                       retryPolicy: options.retryPolicy, clock: clock)
    return WebServiceClient(baseURL: baseURL, configuration: configuration, transport: URLSessionTransport())
}

extension Optional {
    /// The value, or a thrown ``FixtureProblem`` saying `what` is missing.
    func orThrow(_ what: String) throws -> Wrapped {
        guard let self else { throw FixtureProblem(what) }
        return self
    }
}

/// A test set-up that cannot go on, in one sentence.
struct FixtureProblem: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

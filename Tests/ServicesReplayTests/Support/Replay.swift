import Foundation
@testable import MockServer
import ServiceKit
import ServiceKitTesting
import ServiceReplayTesting
import ServiceReplayTestSupport

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

    /// The client's settings these options give, with the default clock (which the replay replaces).
    var configuration: WebServiceClient.Configuration {
        WebServiceClient.Configuration(commonParameters: commonParameters, timeout: timeout, retryPolicy: retryPolicy)
    }
}

/// The client timeouts of the suite, in one place.
enum ReplayTimeout {
    /// For calls the server answers: long enough that a loaded machine never times out by accident.
    static let answer: TimeInterval = 30
    /// For calls the server stalls on purpose: short, so a stall ends quickly as `.timedOut`.
    static let stall: TimeInterval = 1.5
}

/// The product's ``ServiceReplayTesting/withReplay(_:in:upstream:configuration:client:now:filePath:function:_:)``
/// under this suite's rules: the repository's `Recordings/`, a strict server (a request no interaction
/// answers fails the test with the near-miss report), and `faults` without a default on purpose: every test
/// says which plan it runs under, so the CI runs that set `MOCKSERVER_FAULTS` change only the tests that ask
/// for ``CassetteServer/FaultSource/environment``.
func withReplay<T>(
    _ cassette: String, faults: CassetteServer.FaultSource, client options: ClientOptions = ClientOptions(),
    _ body: (Replay) async throws -> T
) async throws -> T {
    DescriptorLimit.raise()
    // The package's own environment: the caller's MOCKSERVER_RECORD and the like never reach the suite.
    return try await TestEnvironment.isolated {
        try await ServiceReplayTesting.withReplay(
            cassette, in: Recordings.folder, configuration: CassetteServer.Configuration(faults: faults, strict: true),
            client: options.configuration, now: options.now, body)
    }
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

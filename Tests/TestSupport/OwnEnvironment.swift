import MockServer
import Testing

/// Runs each test of a suite with the `MOCKSERVER_` variables that choose recording (record mode, live,
/// recordings folder, upstream, maximum age) removed from what the test helpers read, so the package's own
/// suite never depends on the caller's environment: a contributor's exported `MOCKSERVER_RECORD=all` must
/// not re-record the bundled cassettes. The fault variables stay, for CI's fault-injection runs.
package struct OwnEnvironmentTrait: SuiteTrait, TestTrait, TestScoping {
    /// `true`: on a suite, every test in it runs isolated.
    package var isRecursive: Bool { true }

    /// Runs the test with ``MockServer/TestEnvironment/ownSuite`` as its environment.
    package func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        try await TestEnvironment.isolated(function)
    }
}

extension Trait where Self == OwnEnvironmentTrait {
    /// The package's own environment for the helpers (see ``OwnEnvironmentTrait``).
    package static var ownEnvironment: Self { OwnEnvironmentTrait() }
}

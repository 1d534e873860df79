import Foundation

/// Where the test helpers (`withMockServer(replaying:)`, `withReplay`, the `.mockServer` trait) read their
/// `MOCKSERVER_` variables: the process's environment, unless a task replaces it. Adopters always get the
/// process's; the package's own tests replace it, so that a contributor's exported `MOCKSERVER_RECORD`
/// never re-records the bundled cassettes from the real APIs.
package enum TestEnvironment {
    /// The environment the helpers read in this task instead of the process's; `nil` for the process's.
    @TaskLocal package static var override: [String: String]?

    /// The environment the helpers read now.
    package static var current: [String: String] {
        override ?? ProcessInfo.processInfo.environment
    }

    /// The variables that choose what a test records, where it looks and what it forwards to. The fault
    /// variables are not among them: CI sets those on purpose for the services suite.
    package static let recordingVariables = [
        RecordMode.recordVariable, RecordMode.liveVariable, RecordingsFolder.variable,
        CassetteSession.upstreamVariable, CassetteSession.maxAgeVariable,
    ]

    /// The process's environment without ``recordingVariables``: what the package's own suite runs under.
    package static var ownSuite: [String: String] {
        ProcessInfo.processInfo.environment.filter { !recordingVariables.contains($0.key) }
    }

    /// Runs `body` reading ``ownSuite`` instead of the process's environment.
    package static func isolated<Result>(_ body: () async throws -> Result) async rethrows -> Result {
        try await $override.withValue(ownSuite, operation: body)
    }
}

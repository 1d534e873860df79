import Foundation

/// Runs `body` with a started ``CassetteServer`` for the named cassettes, then stops it, whether `body`
/// returns or throws. Works the same in Swift Testing and XCTest (`async` tests); the server is also
/// ``CassetteServer/current`` while `body` runs.
///
/// Each cassette file is read and prepared once per process and shared by every server replaying it
/// until the file changes (size, modification time or file number), so a suite of many short tests pays
/// for starting a server, not for reading its cassettes again.
///
/// ```swift
/// @Test func users() async throws {
///     try await withMockServer(replaying: "github/users", upstream: "https://api.github.com") { server in
///         let client = WebServiceClient(baseURL: server.baseURL!)
///         ...
///     }
/// }
/// ```
///
/// The environment chooses the record mode (`MOCKSERVER_RECORD`, as VCR names its modes): by default the
/// cassettes are only replayed; `MOCKSERVER_RECORD=once` records a missing cassette, `new-episodes` appends
/// what it does not match, `all` re-records it (see below), and
/// `MOCKSERVER_LIVE=1` forwards everything and records nothing. Recording forwards to
/// `MOCKSERVER_UPSTREAM` when set, else to `upstream`, else to the cassette's own `upstream`; it redacts
/// with ``RedactionRules/default``, as `recorder capture` does. The modes that record take one name.
/// Replayed cassettes recorded more than `MOCKSERVER_MAX_AGE_DAYS` days ago earn a warning on standard error.
/// Tests of one process recording the same cassette take turns on it (see the article "Recording from your tests", in MockServerTesting).
///
/// MockServer links no test framework, so this function cannot see a failure that does not throw (a failed
/// `#expect` or `XCTAssert`): under `all` the new recording, with the old cassette's hand-written parts, stays
/// beside the old cassette, which it never replaces, and the call throws naming it and the `mv` that accepts
/// it. (The `.mockServer` trait and `withReplay` in Swift Testing see such failures and replace it themselves.)
/// For the same reason a test with faults cannot run in a mode that records (faults never apply while
/// recording): it throws, saying so.
///
/// - Parameters:
///   - names: cassette names relative to `folder`: `github/users` for `github/users.json`, or a folder
///     name for every cassette in it.
///   - folder: the recordings folder; default the folder the `MOCKSERVER_RECORDINGS` environment variable
///     names, else the nearest `Recordings/` at or above the folder of `filePath`, else the first `Recordings`
///     folder shipped as a bundle resource (when the source tree is not on the device).
///   - upstream: the real API a recording forwards to, such as `https://api.github.com`; default `nil`
///     (the cassette's own). Unused when only replaying.
///   - configuration: how the server runs; default loopback, ephemeral port, faults from the environment.
///     The record mode sets its ``CassetteServer/Configuration/mode`` and ``CassetteServer/Configuration/recording``.
///   - filePath: where to start looking for `Recordings/`; leave the default.
///   - function: the test's name, for the command that records a missing cassette; leave the default.
///   - body: the test's work, given the started server; its result is returned.
/// - Returns: what `body` returns.
/// - Throws: what `body` throws, or ``MockServerError``: `cassetteNotFound` when a cassette is missing in
///   replay mode (naming the file and the command that records it), or no `Recordings/` folder is found;
///   `invalidConfiguration`, `missingOptions` or `invalidUpstream` when the record mode or upstream is invalid
///   or missing, or faults are asked for in a mode that records or talks to the live API (`MOCKSERVER_LIVE`, `drift`); `cannotSave` when a recording cannot be
///   saved, and under `all` when the new recording was kept aside; `unmatchedRequests` in strict mode, with each near miss;
///   a file code for an unreadable cassette; `invalidFaultPlan` for an invalid plan in the environment, or a
///   `service-error` or error-event rule naming a template no cassette holds (see ``CassetteServer/init(cassettes:configuration:)``);
///   `cannotListen` when the server cannot listen.
public func withMockServer<Result>(
    replaying names: String...,
    in folder: URL? = nil,
    upstream: String? = nil,
    configuration: CassetteServer.Configuration = CassetteServer.Configuration(),
    filePath: String = #filePath,
    function: String = #function,
    _ body: (CassetteServer) async throws -> Result
) async throws -> Result {
    // MockServer links no test framework, so it cannot see a failed `#expect` or `XCTAssert` that does not
    // throw: under `all` the new recording stays beside the old cassette (see CassetteSession.finish).
    try await CassetteSession.forTest(
        names: names, folder: folder, upstream: upstream, configuration: configuration,
        filePath: filePath, function: function, { _, server in try await body(server) },
        passed: { _ in nil })
}

extension CassetteSession {
    /// Runs `body` as ``withMockServer(replaying:in:upstream:configuration:filePath:function:_:)`` does for the
    /// test `function` in `filePath`, in the record mode of `environment`: `folder`, or else the nearest
    /// `Recordings/` above `filePath`. The one way every test helper (the closures, the trait, `withReplay`)
    /// finds its folder and names its test. Age warnings go to `warn` (default: standard error); `passed` judges
    /// the result as ``withServer(_:passed:)`` says, and `rehearse` runs a fault test's recording run as
    /// ``run(names:folder:upstream:mode:configuration:test:environment:warn:rehearse:_:passed:)`` says.
    /// - Throws: ``MockServerError`` as that function documents.
    package static func forTest<Result>(
        names: [String], folder: URL?, upstream: String?, configuration: CassetteServer.Configuration,
        filePath: String, function: String,
        environment: [String: String] = TestEnvironment.current,
        warn: ([String]) -> Void = CassetteSession.printWarnings,
        rehearse: ((() async throws -> Void) async -> Void)? = nil,
        _ body: (CassetteSession, CassetteServer) async throws -> Result,
        passed: (Result) -> Bool?
    ) async throws -> Result {
        let recordings = try RecordingsFolder.forTest(folder, filePath: filePath, environment: environment)
        return try await run(
            names: names, folder: recordings, upstream: upstream, mode: try RecordMode.fromEnvironment(environment),
            configuration: configuration, test: testName(function), environment: environment, warn: warn,
            rehearse: rehearse, body, passed: passed)
    }

    /// A test's name as `swift test --filter` takes it: `function` (`#function`, or a Swift Testing test's
    /// name) without its parameter list, such as `octocat` for `octocat()` or `user(id:)`.
    package static func testName(_ function: String) -> String {
        function.split(separator: "(", maxSplits: 1).first.map(String.init) ?? function
    }

    /// Writes each warning to standard error.
    package static func printWarnings(_ warnings: [String]) {
        for warning in warnings {
            FileHandle.standardError.write(Data("warning: \(warning)\n".utf8))
        }
    }

    /// When the replayed cassettes were recorded: the first date one of them gives; `nil` when none does
    /// (or when nothing is replayed).
    package var recordedAt: Date? { cassettes.lazy.compactMap(\.metadata.recordedAt).first }
}

/// Runs `body` with a started ``CassetteServer`` replaying `cassettes` (possibly none, for a server fed only
/// with ``CassetteServer/add(_:)``), then stops it, whether `body` returns or throws. The server is also
/// ``CassetteServer/current`` while `body` runs. In strict mode an unmatched request makes it throw
/// ``MockServerError`` after `body` returns. The record mode in the environment does not apply.
public func withMockServer<Result>(
    cassettes: [Cassette],
    configuration: CassetteServer.Configuration = CassetteServer.Configuration(),
    _ body: (CassetteServer) async throws -> Result
) async throws -> Result {
    // Nothing is recorded, so whether the test passed changes nothing.
    try await CassetteSession(replaying: cassettes, configuration: configuration).withServer(body, passed: { _ in true })
}

extension CassetteServer {
    /// The server of the test running in this task: set for the duration of the body by
    /// ``withMockServer(replaying:in:upstream:configuration:filePath:function:_:)`` and by the Swift Testing
    /// trait `.mockServer(...)`, so a test reads its base URL and journal here. `nil` outside them; child
    /// tasks inherit it, and parallel tests each see their own.
    @TaskLocal public static var current: CassetteServer?
}

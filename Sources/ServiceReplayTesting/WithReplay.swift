import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import MockServerTesting
import ServiceKit
import ServiceKitTesting
import Testing

/// What ``withReplay(_:in:upstream:configuration:client:now:filePath:function:fileID:line:column:_:)`` hands a test: a running
/// replay server and a ServiceKit client pointed at it.
public struct Replay: Sendable {
    /// The server replaying the cassettes; its journal shows what the client sent.
    public let server: CassetteServer
    /// A client for the server's loopback address, over a `URLSession` of its own; its WebSockets go through
    /// ``LoopbackWebSocketTransport`` on Linux (see ``replayWebSocketTransport(_:)``).
    public let client: WebServiceClient
    /// The clock of the client and the server: retries and backoffs are recorded here (`clock.sleeps`), never
    /// slept, and the server's time-based faults and the client's timeout are compared on it.
    public let clock: VirtualClock
}

/// Runs `body` with a ServiceKit client talking to a server that replays the cassettes `names`, then stops
/// the server, whether `body` returns or throws: the services an app ships, tested against what the real API
/// answered, through real HTTP on loopback.
///
/// The server is the one ``MockServer/withMockServer(replaying:in:upstream:configuration:filePath:function:_:)`` starts,
/// with the same cassette lookup and the same record modes (`MOCKSERVER_RECORD`). The client has the
/// server's base URL and `client`'s settings, except its clock: a `VirtualClock` standing at `now`, by default
/// when the first replayed cassette was recorded (its `recordedAt`), or the current date when none says. So
/// what a recorded answer says about time (a rate limit's reset, an HTTP-date `Retry-After`) reads as it did
/// when it was recorded, and a retry's wait is recorded instead of slept. The server runs on the same clock
/// (or on `configuration.clock`, which the client then gets): a latency, stall or throttle fault and the
/// client's timeout are compared on it, so a stall times out exactly at the timeout without waiting.
///
/// WebSocket services connect to the server's recorded conversations with `replay.client.connect(to:)`. On Linux,
/// where `URLSessionWebSocketTransport` cannot open WebSockets, the client gets a ``LoopbackWebSocketTransport``
/// instead; on Apple platforms it keeps URLSession's. A transport of your own in `client` is kept everywhere
/// (see ``replayWebSocketTransport(_:)``).
///
/// In a Swift Testing test, a failure `body` records without throwing (a failed `#expect`) counts as a failed
/// test: under `MOCKSERVER_RECORD=all` the new recording then stays beside the old cassette, and the call
/// throws naming it; a passing test replaces the cassette, keeping its hand-written `note`, `matching` and
/// `errorTemplates`. A test with faults in a mode that records runs `body` twice: once to record, with its
/// failures as known issues, then against the recording with the faults (the run that counts). In XCTest
/// neither is visible, so there it behaves as `withMockServer(replaying:...)` documents.
///
/// ```swift
/// @Test func octocat() async throws {
///     try await withReplay("github/users") { replay in
///         let profile = try await replay.client.send(GitHubUserService(login: "octocat"))
///         #expect(profile.user.login == "octocat")
///     }
/// }
/// ```
///
/// - Parameters:
///   - names: cassette names relative to `folder`, such as `github/users` for `github/users.json`.
///   - folder: the recordings folder; default as for `withMockServer`: the folder `MOCKSERVER_RECORDINGS`
///     names, else the nearest `Recordings/` at or above the folder of `filePath`.
///   - upstream: the real API a recording forwards to; default `nil` (the cassette's own). Unused when only
///     replaying.
///   - configuration: how the server runs; default as for `withMockServer` (not strict, faults from the
///     environment).
///   - client: the client's settings (common parameters, timeout, retry policy); its clock is replaced.
///   - now: where the clock starts; default the replayed cassettes' recording date. Ignored when
///     `configuration.clock` names a clock.
///   - filePath: where to start looking for `Recordings/`; leave the default.
///   - function: the test's name, for the command that records a missing cassette; leave the default.
///   - fileID: with `filePath`, `line` and `column`, where the issues this function records for the test (a
///     rehearsal's known issues) point; leave the default, the call. (Plain literals, not a `SourceLocation`,
///     so that an XCTest file calling this need not import Testing.)
///   - line: the call's line, as `fileID` says; leave the default.
///   - column: the call's column, as `fileID` says; leave the default.
///   - body: the test's work, given the ``Replay`` (its client and server); its result is returned. In a mode
///     that records with faults it runs twice, as said above.
/// - Returns: what `body` returns (from the run with the faults, when it runs twice).
/// - Throws: what `body` throws, or ``MockServer/MockServerError`` as `withMockServer(replaying:...)` documents.
public func withReplay<Result>(
    _ names: String...,
    in folder: URL? = nil,
    upstream: String? = nil,
    configuration: CassetteServer.Configuration = CassetteServer.Configuration(),
    client: WebServiceClient.Configuration = WebServiceClient.Configuration(),
    now: Date? = nil,
    filePath: String = #filePath,
    function: String = #function,
    fileID: String = #fileID,
    line: Int = #line,
    column: Int = #column,
    _ body: (Replay) async throws -> Result
) async throws -> Result {
    // One clock for the server and the client; a clock the configuration names is kept.
    var configuration = configuration
    let clock = configuration.clock ?? VirtualClock(now: now ?? Date())
    let standsWhereRecorded = configuration.clock == nil && now == nil
    configuration.clock = clock
    // A test naming faults is skipped under the live modes (see CassetteSession.skipTest).
    let run = try await CassetteSession.$skipTest.withValue(testSkipper()) {
        try await CassetteSession.forTest(
            names: names, folder: folder, upstream: upstream, configuration: configuration,
            filePath: filePath, function: function, rehearse: rehearsal(at: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)),
            { session, server -> (value: Result, failed: Bool?) in
                guard let baseURL = server.baseURL else {
                    throw MockServerError(.notRunning, "the replay server has no base URL: it is not running")
                }
                if standsWhereRecorded, let recordedAt = session.recordedAt { clock.setStart(recordedAt) }
                var settings = client
                settings.clock = clock
                settings.webSocketTransport = replayWebSocketTransport(client.webSocketTransport)
                let client = WebServiceClient(baseURL: baseURL, configuration: settings, transport: URLSessionTransport())
                let replay = Replay(server: server, client: client, clock: clock)
                // In a Swift Testing test, a failed `#expect` that does not throw also counts as a failure.
                let (result, failed) = await observingFailures { try await body(replay) }
                return (try result.get(), failed)
            }, passed: { run in run.failed.map { !$0 } })
    }
    return run.value
}

/// The WebSocket transport a replay's client gets for `configured`, the one its configuration names: on Linux, where
/// `URLSessionWebSocketTransport` cannot open WebSockets at all (its libcurl has none), a
/// ``LoopbackWebSocketTransport`` in place of a `URLSessionWebSocketTransport`; any other transport, and every
/// transport on Apple platforms, as it is.
public func replayWebSocketTransport(_ configured: any WebSocketTransport) -> any WebSocketTransport {
    #if os(Linux)
    if configured is URLSessionWebSocketTransport { return LoopbackWebSocketTransport() }
    #endif
    return configured
}

import Foundation

/// Runs `body` with a started ``ReplayServer`` replaying the named cassettes, then stops it, whether
/// `body` returns or throws. Works the same in Swift Testing and XCTest (`async` tests).
///
/// ```swift
/// @Test func users() async throws {
///     try await withMockServer(replaying: "github/users") { server in
///         let client = WebServiceClient(baseURL: server.baseURL!)
///         ...
///     }
/// }
/// ```
///
/// - Parameters:
///   - names: cassette names relative to `folder`: `github/users` for `github/users.json`, or a folder
///     name for every cassette in it.
///   - folder: the recordings folder; default the nearest `Recordings/` above `filePath`
///     (see ``RecordingsFolder/nearest(to:environment:)``).
///   - configuration: how the server runs; default loopback, ephemeral port, faults from the environment.
///   - filePath: where to start looking for `Recordings/`; leave the default.
/// - Throws: what `body` throws; ``ReplayServerError`` when a cassette is missing or, in strict mode, when
///   a request went unmatched (with each near miss); ``CassetteError`` for an unreadable cassette;
///   ``FaultPlanError`` for an invalid plan in the environment; ``HTTPServerError`` when the server
///   cannot listen.
public func withMockServer<Result>(
    replaying names: String...,
    in folder: URL? = nil,
    configuration: ReplayServer.Configuration = ReplayServer.Configuration(),
    filePath: String = #filePath,
    _ body: (ReplayServer) async throws -> Result
) async throws -> Result {
    guard let recordings = folder ?? RecordingsFolder.nearest(to: filePath) else {
        throw ReplayServerError("no Recordings folder at or above \(filePath); pass the folder with `in:`")
    }
    var cassettes: [Cassette] = []
    for name in names {
        cassettes += try RecordingsFolder.cassettes(named: name, in: recordings)
    }
    return try await withMockServer(cassettes: cassettes, configuration: configuration, body)
}

/// Runs `body` with a started ``ReplayServer`` replaying `cassettes` (possibly none, for a server fed only
/// with ``ReplayServer/add(_:)``), then stops it, whether `body` returns or throws. In strict mode an
/// unmatched request makes it throw ``ReplayServerError`` after `body` returns.
public func withMockServer<Result>(
    cassettes: [Cassette],
    configuration: ReplayServer.Configuration = ReplayServer.Configuration(),
    _ body: (ReplayServer) async throws -> Result
) async throws -> Result {
    let server = try ReplayServer(cassettes: cassettes, configuration: configuration)
    try await server.start()
    let result: Result
    do {
        result = try await body(server)
    } catch {
        await server.stop()
        throw error
    }
    await server.stop()
    if configuration.strict {
        try server.verifyNoUnmatchedRequests()
    }
    return result
}

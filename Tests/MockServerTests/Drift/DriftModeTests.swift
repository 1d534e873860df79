import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceReplayShared
@testable import MockServer
import ServiceReplayTestSupport
import Testing

/// The `swift test` drift mode (`MOCKSERVER_RECORD=drift`) as the test helpers run it: the test's requests go
/// to a live upstream on loopback, and each answer is compared with what its cassette would have replayed.
@Suite struct DriftModeTests {
    /// An upstream whose answers move from version 1 (what the cassette holds) to version 2 while it runs.
    final class Upstream: HTTPHandler {
        let version = Lock(1)
        func reply(to request: HTTPRequest, context: HTTPRequestContext) -> HTTPReply {
            let v2 = version.withLock { $0 } == 2
            let body =
                switch request.path {
                case "/user": v2 ? #"{"id":2}"# : #"{"id":1,"email":"ann@example.com"}"#
                default: v2 ? #"{"id":3,"bio":"hi"}"# : #"{"id":3}"#
                }
            return .response(status: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
        }
    }

    /// Runs a test body that asks for GET /user and GET /profile, in drift mode, against `upstream`.
    private func runTest(folder: URL) async throws {
        try await CassetteSession.run(
            names: ["api"], folder: folder, upstream: nil, mode: .drift, configuration: .init(faults: .none),
            test: nil, environment: [:], warn: { _ in },
            { _, server in
                try await withURLSession { session in
                    for path in ["/user", "/profile"] {
                        let (_, response) = try await session.httpData(for: URLRequest(url: server.baseURL!.appendingPathComponent(path)))
                        #expect(response.statusCode == 200)
                    }
                }
            }, passed: { _ in true })
    }

    @Test func driftMode_passesOnAnUnchangedAPI_failsNamingTheBreakingChange_andNeverTouchesTheCassette() async throws {
        // GIVEN a cassette recorded from version 1, and the upstream it names
        let handler = Upstream()
        let server = HTTPServer(configuration: .init(), handler: handler)
        let base = try await server.start()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("drift-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = { (text: String) in
            RecordedResponse(status: 200, headers: ["Content-Type": "application/json"], body: RecordedBody(Data(text.utf8), contentType: "application/json"))
        }
        let cassette = Cassette(
            name: "api", upstream: base.absoluteString,
            interactions: [
                Interaction(request: RecordedRequest(method: "GET", target: "/user"), response: json(#"{"id":1,"email":"ann@example.com"}"#)),
                Interaction(request: RecordedRequest(method: "GET", target: "/profile"), response: json(#"{"id":3}"#)),
            ])
        let file = folder.appendingPathComponent("api.json")
        try cassette.save(to: file)
        let saved = try Data(contentsOf: file)

        // WHEN the test runs against version 1 THEN it passes
        try await runTest(folder: folder)

        // WHEN the upstream moves to version 2 (email removed from /user, bio added to /profile)
        handler.version.withLock { $0 = 2 }
        // THEN the test fails naming the breaking change at its JSON path, worded as recorder drift words it,
        // and lists the additive change beside it, as the CLI does (half of a rename is a removed field, the
        // other half an added one)
        let error = await #expect(throws: MockServerError.self) { try await runTest(folder: folder) }
        #expect(error?.code == .apiDrift)
        #expect(
            error?.reason == "the live API no longer answers as the cassette says (MOCKSERVER_RECORD=drift):\n"
                + "  GET /user: breaking  $.email: string → missing (field removed)\n"
                + "  GET /profile: additive  $.bio: missing → string (field added)")
        // AND the cassette is byte for byte as it was
        #expect(try Data(contentsOf: file) == saved)
        await server.stop()
    }

    /// Sends GET `paths` through a pass-through server to `upstream`, its exchanges kept by `check`, as the drift
    /// mode sets it up; returns the statuses the client got.
    private func passThrough(_ paths: [String], to upstream: URL, check: DriftCheck) async throws -> [Int] {
        var configuration = CassetteServer.Configuration(faults: .none)
        configuration.mode = .passThrough
        configuration.recording = RecordingOptions(upstream: try MockServer.Upstream(upstream))
        configuration.recording?.onExchange = { check.keep($0) }
        let server = try CassetteServer(cassettes: [], configuration: configuration)
        let base = try await server.start()
        let statuses = try await withURLSession { session in
            var statuses: [Int] = []
            for path in paths {
                statuses.append(try await session.httpData(for: URLRequest(url: base.appendingPathComponent(path))).1.statusCode)
            }
            return statuses
        }
        await server.stop()
        return statuses
    }

    private static let cassette = Cassette(
        name: "api",
        interactions: [
            Interaction(
                request: RecordedRequest(method: "GET", target: "/user"),
                response: RecordedResponse(status: 200, headers: ["Content-Type": "application/json"], body: .json(["id": 1, "email": "ann@example.com"]))),
            Interaction(
                request: RecordedRequest(method: "GET", target: "/profile"),
                response: RecordedResponse(status: 200, headers: ["Content-Type": "application/json"], body: .json(["id": 3]))),
        ])

    @Test func driftCheck_returnsAdditiveChanges_andRequestsNoCassetteAnswers_asWarnings() async throws {
        // GIVEN the upstream at version 2, where /profile gained a field, and a request no interaction answers
        let handler = Upstream()
        handler.version.withLock { $0 = 2 }
        let server = HTTPServer(configuration: .init(), handler: handler)
        let base = try await server.start()
        let check = DriftCheck(cassettes: [Self.cassette], matching: MatchRules())
        // WHEN the requests pass through and the check runs
        let statuses = try await passThrough(["/profile", "/other"], to: base, check: check)
        await server.stop()
        #expect(statuses == [200, 200])
        let warnings = try await check.verify()
        // THEN nothing is thrown, and each is a warning worded as recorder drift words it
        #expect(
            warnings == [
                "drift: GET /profile: additive  $.bio: missing → string (field added)",
                "drift: GET /other: no interaction of the cassettes answers this request, so nothing was compared",
            ])
    }

    @Test func driftCheck_withNothingKept_comparesNothing() async throws {
        #expect(try await DriftCheck(cassettes: [Self.cassette], matching: MatchRules()).verify() == [])
    }

    @Test func driftCheck_anUpstreamThatCannotBeReached_isBreaking() async throws {
        // GIVEN a closed port as the upstream
        let closed = try ReservedPort()
        let check = DriftCheck(cassettes: [Self.cassette], matching: MatchRules())
        // WHEN a request passes through (and gets the 502 the failure becomes) and the check runs
        #expect(try await passThrough(["/profile"], to: closed.baseURL, check: check) == [502])
        let error = await #expect(throws: MockServerError.self) { try await check.verify() }
        // THEN the failure is the breaking change, named at the request
        #expect(error?.code == .apiDrift)
        #expect(
            error?.reason.hasPrefix(
                "the live API no longer answers as the cassette says (MOCKSERVER_RECORD=drift):\n"
                    + "  GET /profile: breaking  upstream: answered → unreachable (") == true, "\(String(describing: error))")
    }
}

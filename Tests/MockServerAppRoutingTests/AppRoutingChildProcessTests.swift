// Only where the probe is built and started as a child process: Xcode builds no command-line executable for iOS, tvOS,
// watchOS or visionOS, and ChildProcess (Tests/TestSupport) exists on macOS and Linux alone.
#if os(macOS) || os(Linux)
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import MockServer
import MockServerAppRouting
import Testing

/// The app side end to end: a child process (the routing probe) activated with a server's launch
/// environment. Every host the tests name outside 127.0.0.1 (`*.example.test`) is reached only through the
/// routing; the probe refuses to send such a request through a session the routing does not reach.
@Suite struct AppRoutingChildProcessTests {
    static let apiBody = Data([0x61, 0x70, 0x69, 0x00, 0xff, 0x0a])
    static let cdnBody = Data([0x63, 0x64, 0x6e, 0x80, 0x00, 0x7f])

    /// One path on two hosts, matched by `Host`: only a request carrying the host it was meant for gets its body.
    static let twoHosts: Cassette = {
        var cassette = Cassette(
            name: "hosts",
            interactions: [
                Interaction(
                    request: RecordedRequest(method: "GET", target: "/asset", headers: ["Host": "api.example.test"]),
                    response: RecordedResponse(status: 200, headers: ["Content-Type": "application/octet-stream"], body: .binary(apiBody))),
                Interaction(
                    request: RecordedRequest(method: "GET", target: "/asset", headers: ["Host": "cdn.example.test"]),
                    response: RecordedResponse(status: 200, headers: ["Content-Type": "application/octet-stream"], body: .binary(cdnBody))),
            ])
        cassette.matching.headers = ["Host"]
        return cassette
    }()

    static let plain = Cassette(name: "plain", interactions: [.stub("GET", "/plain", text: "direct")])

    /// What the probe prints for a request the routing does not reach, to a host off this machine.
    static let notSent = "refused: not routed, so not sent off this machine"

    @Test func launchEnvironment_routesRequestsForTwoHosts_toTheOneServer_eachMatchedUnderItsOwnHost() async throws {
        try await withMockServer(cassettes: [Self.twoHosts], configuration: .init(faults: .none)) { server in
            // GIVEN a running server replaying one path for two hosts, and its launch environment
            let environment = try server.launchEnvironment
            let base = try #require(server.baseURL)
            // WHEN the app asks the API through URLSession.shared and the CDN through ServiceKit and a session
            // from the default configuration
            let run = try await RoutingProbe.run(
                [
                    "shared http://api.example.test/asset", "servicekit https://cdn.example.test/asset", "default https://cdn.example.test/asset",
                    "shared /asset",
                ], environment: environment)
            // THEN each host's recorded bytes come back, and the server saw each request under its own host
            #if canImport(FoundationNetworking)
            // On Linux nothing global reaches a session the app makes from a configuration itself.
            let defaultLine = "default https://cdn.example.test/asset -> \(Self.notSent)"
            let hosts = ["api.example.test", "cdn.example.test"]
            #else
            let defaultLine = "default https://cdn.example.test/asset -> 200 \(Self.cdnBody.base64EncodedString())"
            let hosts = ["api.example.test", "cdn.example.test", "cdn.example.test"]
            #endif
            #expect(
                run.lines == [
                    "activation: routed \(base.absoluteString)",
                    "shared http://api.example.test/asset -> 200 \(Self.apiBody.base64EncodedString())",
                    "servicekit https://cdn.example.test/asset -> 200 \(Self.cdnBody.base64EncodedString())",
                    defaultLine,
                    // a URL without a scheme is no http request: not routed
                    "shared /asset -> \(Self.notSent)",
                ], "\(run.errors)")
            #expect(run.status == 0)
            #expect(server.journal.entries.map { $0.request.headers["Host"] } == hosts)
            #expect(server.journal.entries.allSatisfy { $0.outcome.kind == .matched })
            #expect(server.journal.entries.allSatisfy { $0.request.headers["X-MockServer-Host"] == nil })
        }
    }

    @Test func withoutTheVariable_theChildSendsNothingToTheServer_andReachesWhatItAlwaysDid() async throws {
        try await withMockServer(cassettes: [Self.twoHosts], configuration: .init(faults: .none)) { server in
            try await withMockServer(cassettes: [Self.plain], configuration: .init(faults: .none)) { plain in
                // GIVEN a replay server whose launch environment the child does not get, and a plain server it
                // addresses directly
                let direct = try #require(plain.baseURL).appendingPathComponent("plain").absoluteString
                // WHEN the child runs without the variable
                let run = try await RoutingProbe.run(
                    ["shared \(direct)", "servicekit \(direct)", "default \(direct)", "shared http://api.example.test/asset"], environment: [:])
                // THEN routing stays off: the plain server answers every direct request, the routed host is not
                // reached at all, and the replay server hears nothing
                let answered = "200 \(Data("direct".utf8).base64EncodedString())"
                #expect(
                    run.lines == [
                        "activation: off", "shared \(direct) -> \(answered)", "servicekit \(direct) -> \(answered)",
                        "default \(direct) -> \(answered)", "shared http://api.example.test/asset -> \(Self.notSent)",
                    ], "\(run.errors)")
                #expect(plain.journal.entries.count == 3)
                #expect(server.journal.entries.isEmpty)
            }
        }
    }

    @Test func aMalformedVariable_isReportedInOneSentence_andTheAppsRequestsFailInsteadOfLeaving() async throws {
        try await withMockServer(cassettes: [Self.plain], configuration: .init(faults: .none)) { plain in
            // GIVEN a variable naming no loopback server, and a plain server the child's requests would reach
            // were they not stopped
            let direct = try #require(plain.baseURL).appendingPathComponent("plain").absoluteString
            // WHEN the child activates with it
            let run = try await RoutingProbe.run(
                ["shared \(direct)", "servicekit \(direct)"], environment: [AppRouting.environmentVariable: "https://api.example.test"])
            // THEN activation says why in one sentence, and the routed sessions' requests fail with it
            let sentence =
                "MOCKSERVER_APP_SERVER is 'https://api.example.test', which is not the base URL of a server on this machine (such as http://127.0.0.1:8080): "
                + "its scheme is not http, so every request of the app fails instead of reaching the real network"
            #expect(
                run.lines == ["activation: refused: \(sentence)", "shared \(direct) -> error: \(sentence)", "servicekit \(direct) -> error: \(sentence)"],
                "\(run.errors)")
            #expect(plain.journal.entries.isEmpty)
        }
    }

    @Test func recordMode_recordsTheAppsRequest_fromTheUpstream_andAnswersTheAppWithIt() async throws {
        try await withMockServer(cassettes: [Self.plain], configuration: .init(faults: .none)) { upstream in
            // GIVEN a server recording in front of a fake upstream (a plain loopback server)
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("approuting-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let recording = RecordingOptions(upstream: try Upstream(try #require(upstream.baseURL)), file: folder.appendingPathComponent("api.json"))
            let server = try CassetteServer(cassettes: [], configuration: .init(faults: .none, mode: .record, recording: recording))
            try await server.start()
            // WHEN the app, routed to it, asks its API host
            let run = try await RoutingProbe.run(["shared http://api.example.test/plain"], environment: try server.launchEnvironment)
            await server.stop()
            // THEN the upstream's answer reaches the app and is recorded
            let answered = "200 \(Data("direct".utf8).base64EncodedString())"
            #expect(run.lines.dropFirst() == ["shared http://api.example.test/plain -> \(answered)"], "\(run.errors)")
            #expect(upstream.journal.entries.map(\.request.target) == ["/plain"])
            let recorded = try #require(server.recordedCassette)
            #expect(recorded.interactions.map(\.request.target) == ["/plain"])
            #expect(recorded.interactions.map { $0.request.headers["Host"] } == ["api.example.test"], "recorded under the app's host")
            #expect(recorded.interactions.first?.response?.body.data == Data("direct".utf8))
            #expect(server.journal.entries.map(\.outcome.kind) == [.recorded])
        }
    }

    /// An app that logs in (the upstream sets a session cookie on `/login`) and then asks `/me`, which answers 200
    /// only with that cookie: recorded through the app's routing, then replayed with the upstream gone.
    @Test func anAppThatLogsIn_recordsItsCallWithTheCookie_andReplaysItOffline_withNoCookieInClear() async throws {
        let secret = "s3cr3t-\(UUID().uuidString)"
        let upstream = HTTPServer { request in
            switch request.path {
            case "/login":
                return .response(status: 200, headers: ["Set-Cookie": "session=\(secret); Path=/; HttpOnly"], body: Data("in".utf8))
            default:
                let authorized = request.headers["Cookie"]?.contains("session=\(secret)") == true
                return .response(status: authorized ? 200 : 401, body: Data((authorized ? "ada" : "log in first").utf8))
            }
        }
        let upstreamURL = try await upstream.start()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("approuting-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("session.json")
        let requests = ["shared http://api.example.test/login", "shared http://api.example.test/me"]
        let loggedIn = [
            "shared http://api.example.test/login -> 200 \(Data("in".utf8).base64EncodedString())",
            "shared http://api.example.test/me -> 200 \(Data("ada".utf8).base64EncodedString())",
        ]
        // GIVEN a server recording the app in front of the cookie-session upstream
        let recording = RecordingOptions(upstream: try Upstream(upstreamURL), file: file)
        let recorder = try CassetteServer(cassettes: [], configuration: .init(faults: .none, mode: .record, recording: recording))
        try await recorder.start()
        // WHEN the app logs in and calls, routed
        let recorded = try await RoutingProbe.run(requests, environment: try recorder.launchEnvironment)
        await recorder.stop()
        await upstream.stop()
        try recorder.saveRecording()
        // THEN its call carried the session cookie, and the cassette holds no cookie value in clear
        #expect(Array(recorded.lines.dropFirst()) == loggedIn, "\(recorded.errors)")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(!text.contains(secret))
        // AND offline, the app replays the same: the replayed cookie is sent back as the recorded one was
        try await withMockServer(cassettes: [try Cassette.load(from: file)], configuration: .init(faults: .none)) { server in
            let replayed = try await RoutingProbe.run(requests, environment: try server.launchEnvironment)
            #expect(Array(replayed.lines.dropFirst()) == loggedIn, "\(replayed.errors)")
            #expect(server.journal.entries.last?.request.headers["Cookie"] == "session=\(Cassette.redactionPlaceholder)")
        }
    }

    /// Waits, in bounded steps, until `condition` holds (true) or about `seconds` passed (false): for what a child
    /// process does, which no callback reports.
    static func eventually(within seconds: Int, _ condition: () -> Bool) async throws -> Bool {
        for _ in 0..<(seconds * 100) {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    @Test func cancellingARoutedRequest_closesItsLoopbackConnection() async throws {
        let plan = try FaultPlan.parse(specs: "stall", seed: 1)
        try await withMockServer(cassettes: [Self.plain], configuration: .init(faults: .plan(plan))) { server in
            // GIVEN the app's routed request, stalled by the server, which holds its connection open
            let probe = try RoutingProbe.start(["cancel http://api.example.test/plain"], environment: try server.launchEnvironment)
            let arrived = try await Self.eventually(within: 60) { server.journal.entries.count == 1 && server.openConnectionCount == 1 }
            #expect(arrived)
            // WHEN the app cancels it
            kill(probe.process.processIdentifier, SIGUSR1)
            // THEN the loopback connection closes while the app still runs, and the app hears of the cancel (a
            // second signal ends it)
            // (within 20 s: the shared session gives up on its own after 60 s, the loopback request after 300 s)
            let closed = try await Self.eventually(within: 20) { server.openConnectionCount == 0 }
            #expect(closed)
            #expect(probe.process.isRunning)
            kill(probe.process.processIdentifier, SIGUSR1)
            let run = await probe.finish()
            #expect(run.lines.dropFirst().first?.hasPrefix("cancel http://api.example.test/plain -> error: ") == true, "\(run.lines) \(run.errors)")
        }
    }

    @Test func aSessionMadeBeforeActivation_doesNotKeepTheSharedSessionFromBeingRouted() async throws {
        try await withMockServer(cassettes: [Self.twoHosts], configuration: .init(faults: .none)) { server in
            // GIVEN an app that made a session before it activated routing
            let base = try #require(server.baseURL)
            // WHEN it activates, then asks the API through URLSession.shared
            let run = try await RoutingProbe.run(["--session-first", "shared http://api.example.test/asset"], environment: try server.launchEnvironment)
            // THEN the shared session is routed all the same
            #expect(
                run.lines == [
                    "activation: routed \(base.absoluteString)", "shared http://api.example.test/asset -> 200 \(Self.apiBody.base64EncodedString())",
                ],
                "\(run.errors)")
        }
    }

    @Test func theSharedSessionUsedBeforeAnyOtherSession_isRoutedAllTheSame() async throws {
        try await withMockServer(cassettes: [Self.twoHosts], configuration: .init(faults: .none)) { server in
            // GIVEN an app that used URLSession.shared, and no other session, before it activated routing
            let base = try #require(server.baseURL)
            // WHEN it activates, then asks the API through it
            let run = try await RoutingProbe.run(["--shared-first", "shared http://api.example.test/asset"], environment: try server.launchEnvironment)
            // THEN it is routed: on Linux it then has no protocol classes of its own, and the registered ones
            // (routing first) are consulted
            #expect(
                run.lines == [
                    "activation: routed \(base.absoluteString)", "shared http://api.example.test/asset -> 200 \(Self.apiBody.base64EncodedString())",
                ],
                "\(run.errors)")
        }
    }

    @Test func theRoutingClass_addedToAConfiguration_isRemovedAgain() async throws {
        // GIVEN an app that activated routing
        // WHEN a configuration gets the routing class and then loses it, as the loopback sessions' does
        let run = try await RoutingProbe.run(["--check-exclusion"], environment: [AppRouting.environmentVariable: "http://127.0.0.1:9"])
        // THEN it has one class more in between, and its own classes after
        let classes = URLSessionConfiguration.ephemeral.protocolClasses?.count ?? 0
        #expect(run.lines == ["activation: routed http://127.0.0.1:9", "exclusion: \(classes + 1) classes, then \(classes)"], "\(run.errors)")
    }

    #if canImport(FoundationNetworking)
    @Test func theSharedSessionUsedBeforeActivation_isReported_andNotUsedUnrouted() async throws {
        try await withMockServer(cassettes: [Self.twoHosts], configuration: .init(faults: .none)) { server in
            // GIVEN an app that made a session, then used URLSession.shared, before it activated routing (on Linux
            // the shared session keeps the protocol classes registered when it was first used: the session's)
            // WHEN it activates, then asks the API through URLSession.shared
            let run = try await RoutingProbe.run(
                ["--session-first", "--shared-first", "shared http://api.example.test/asset"], environment: try server.launchEnvironment)
            // THEN activation says so in one sentence, and the shared session is not routed
            let sentence =
                "URLSession.shared was made before AppRouting.activate() was called, so its requests would bypass the test's server; "
                + "call activate() first thing at start-up, before any URLSession is used"
            #expect(run.lines == ["activation: refused: \(sentence)", "shared http://api.example.test/asset -> \(Self.notSent)"], "\(run.errors)")
            #expect(server.journal.entries.isEmpty)
        }
    }
    #endif
}
#endif

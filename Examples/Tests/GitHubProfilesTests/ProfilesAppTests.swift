// Only where a test can start a process: Foundation has no Process on iOS, tvOS or watchOS.
#if os(macOS) || os(Linux)
import Foundation
import MockServer
import MockServerTesting
import Testing

/// The app side of a UI test, proven where there is no simulator: the example's app (`profiles-app`) runs as a
/// child process, launched as `XCUIApplication` launches an app, with the server's `launchEnvironment`, and the
/// test drives it one command at a time while it steers the server between commands.
@Suite struct ProfilesAppTests {
    /// What the app shows for octocat's profile as GitHub (and the example's fake of it) serves it.
    static let octocat = "profile octocat: The Octocat (octocat), 8 public repositories"

    /// A safety net, not a setting the app needs: libcurl (FoundationNetworking) sends a request for a host other
    /// than 127.0.0.1 through a proxy at 127.0.0.1 port 9, which refuses it, so that a routing bug fails the test
    /// instead of reaching the real api.github.com.
    static let offMachineRefused = [
        "http_proxy": "http://127.0.0.1:9", "https_proxy": "http://127.0.0.1:9", "HTTPS_PROXY": "http://127.0.0.1:9",
        "no_proxy": "127.0.0.1", "NO_PROXY": "127.0.0.1",
    ]

    /// What a forwarding server's journal says of the request it forwarded: recorded (`once` recording the
    /// cassette), matched (a second copy of the test, replaying what the first recorded), passed through (`drift`).
    static func forwarded(in mode: CassetteServer.Mode) -> JournalOutcome.Kind {
        switch mode {
        case .record: .recorded
        case .replayOrRecord: .matched
        default: .passedThrough
        }
    }

    /// Two copies at once, each with a server and an app of its own: parallel runs never clash, since each server
    /// listens on a port the system chose and each app is told its own. Under `.ci/example` the first phase
    /// records the cassette from the fake upstream (`MOCKSERVER_RECORD=once`), and the replay phase, with the
    /// upstream stopped, runs the fault steps: a server that forwards to the upstream takes no fault plan.
    @Test(.mockServer("ProfilesApp/octocat", upstream: "https://api.github.com", faults: .none), arguments: 1...2)
    func theApp_showsItsProfile_thenTheErrorOfEachFaultSetWhileItRuns(copy: Int) async throws {
        let server = try #require(CassetteServer.current)
        // GIVEN the app, launched with the server's launch environment and nothing else of the test's
        let app = try AppProcess(environment: try server.launchEnvironment.merging(Self.offMachineRefused) { $1 })
        #expect(try await app.nextLine() == "routing: \(try #require(server.baseURL).absoluteString)")
        // WHEN it asks for a profile THEN it shows what GitHub's answer (recorded, or being recorded) holds
        #expect(try await app.ask("profile octocat") == Self.octocat)
        if server.configuration.mode == .replay {
            // WHEN the server answers 503 from the next request on THEN the app shows the service-level error
            try server.setFaultPlan(try FaultPlan.parse(specs: "status=503"))
            #expect(try await app.ask("profile octocat") == "profile octocat: service error: GitHub answered HTTP 503")
            // WHEN it resets the connection instead THEN the app shows the network-level error
            try server.setFaultPlan(try FaultPlan.parse(specs: "reset"))
            #expect(
                try await app.ask("profile octocat")
                    == "profile octocat: network error: The connection was lost before the request finished. Try again.")
            // AND the server saw each request under the host the app meant, answered as the plan in force said,
            // each plan's rule counting from its first match. The reset comes once or twice: libcurl (and Apple's
            // URLSession likewise) sends an idempotent request once more on a fresh connection when one it
            // reused is reset before any answer, and whether the app's connection was reused is not the test's.
            let entries = server.journal.entries
            let resets = entries.count - 2
            #expect((1...2).contains(resets), "\(entries)")
            let resetRules = (0..<max(resets, 0)).map { "rule 1 'reset' on match \($0 + 1)" }
            #expect(entries.map(\.request.target) == Array(repeating: "/users/octocat", count: entries.count))
            #expect(entries.map { $0.request.headers["Host"] } == Array(repeating: "api.github.com", count: entries.count))
            #expect(entries.map(\.outcome.kind) == [.matched, .faultInjected] + resetRules.map { _ in .faultInjected })
            #expect(entries.map(\.outcome.status) == [200, 503] + resetRules.map { _ in nil })
            #expect(entries.map(\.outcome.faultRule) == [nil, "rule 1 'status=503' on match 1"] + resetRules)
        } else {
            // Recording or checking drift: the request went to the upstream, and the server refuses a fault plan.
            #expect(throws: MockServerError.self) { try server.setFaultPlan(try FaultPlan.parse(specs: "status=503")) }
            let entries = server.journal.entries
            #expect(entries.map { $0.request.headers["Host"] } == ["api.github.com"])
            #expect(entries.map(\.outcome.kind) == [Self.forwarded(in: server.configuration.mode)])
            #expect(entries.map(\.outcome.status) == [200])
        }
        let errors = await app.finish()
        #expect(app.exitStatus == 0, "\(errors)")
    }

    /// A profile only the stand-in for the app's configured host serves, so that its answer shows where the
    /// request went.
    static let enterprise = Cassette(
        name: "enterprise",
        interactions: [.stub("GET", "/users/octocat", json: ["login": "octocat", "name": "Enterprise Octocat", "public_repos": 3])])

    @Test func withoutTheVariable_theAppSendsNothingToTheServer_andReachesItsConfiguredHost() async throws {
        try await withMockServer(cassettes: [], configuration: .init(faults: .none)) { server in
            try await withMockServer(cassettes: [Self.enterprise], configuration: .init(faults: .none)) { host in
                // GIVEN a running server whose launch environment the app does not get, and a loopback server
                // standing in for the real host the app is configured for (a GitHub Enterprise server)
                let api = try #require(host.baseURL)
                // WHEN the app runs and asks for a profile
                let app = try AppProcess(environment: Self.offMachineRefused.merging(["GITHUB_API_URL": api.absoluteString]) { $1 })
                let lines = [try await app.nextLine(), try await app.ask("profile octocat")]
                let errors = await app.finish()
                // THEN routing stays off, the configured host answers, and the server hears nothing
                #expect(lines == ["routing: off", "profile octocat: Enterprise Octocat (octocat), 3 public repositories"], "\(errors)")
                #expect(host.journal.entries.map(\.request.target) == ["/users/octocat"])
                #expect(host.journal.entries.map { $0.request.headers["Host"] } == ["127.0.0.1:\(api.port ?? 0)"])
                #expect(server.journal.entries.isEmpty)
            }
        }
    }

    @Test func aMalformedVariable_isReportedInOneLine_andTheAppsRequestsFailInsteadOfLeaving() async throws {
        // GIVEN a variable that names no server on this machine
        let app = try AppProcess(environment: Self.offMachineRefused.merging(["MOCKSERVER_APP_SERVER": "https://api.example.test"]) { $1 })
        // WHEN the app starts, asks for a profile, then sends a command it does not know
        let lines = [try await app.nextLine(), try await app.ask("profile octocat"), try await app.ask("hello")]
        let errors = await app.finish()
        // THEN it says why routing is refused, its request fails as a network-level error, and the unknown
        // command is named
        #expect(
            lines == [
                "routing: refused: MOCKSERVER_APP_SERVER is 'https://api.example.test', which is not the base URL of a server on this machine (such as http://127.0.0.1:8080): "
                    + "its scheme is not http, so every request of the app fails instead of reaching the real network",
                "profile octocat: network error: Could not connect to the server. Try again later.",
                "error: unknown command 'hello'; the only command is 'profile LOGIN'",
            ], "\(errors)")
        #expect(app.exitStatus == 0)
    }

    @Test func aConfiguredHostThatIsNoHTTPURL_endsTheAppWithOneSentence() async throws {
        // GIVEN an API address that is not an http or https URL
        let app = try AppProcess(environment: Self.offMachineRefused.merging(["GITHUB_API_URL": "ftp://github.example.test"]) { $1 })
        // WHEN the app starts THEN it says so in one line and exits with status 2
        let lines = [try await app.nextLine(), try await app.nextLine()]
        let errors = await app.finish()
        #expect(lines == ["routing: off", "error: GITHUB_API_URL is 'ftp://github.example.test', which is not an http or https URL"], "\(errors)")
        #expect(app.exitStatus == 2)
    }
}
#endif

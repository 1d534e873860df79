import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import MockServer
import ExampleServices
import ServiceKit
import ServiceReplayShared
import ServiceReplayTesting
import Testing

/// `FaultMatrix.run` through its users' surface: an app's service (a correct one, a broken one, a stream, one
/// with retries) and an async call with fallbacks, against the repository's cassettes over real loopback HTTP.
/// Serialized: each test runs a matrix of parallel rows with 1 s client timeouts, and several at once left too
/// little CPU under ThreadSanitizer for a baseline to answer within that second.
@Suite(.serialized, .timeLimit(.minutes(2))) struct FaultMatrixRunTests {
    /// A client as an app's test would build it: a short timeout, so that stalls end quickly.
    static let client: @Sendable (URL) -> WebServiceClient = { WebServiceClient(baseURL: $0, configuration: .init(timeout: 1)) }

    /// The row of `fault`.
    static func row(_ fault: String, of report: FaultMatrix.Report) throws -> FaultMatrix.Report.Row {
        try #require(report.rows.first { $0.case.fault == fault }, "no row \(fault) in\n\(report)")
    }

    @Test func correctService_passesEveryRow() async throws {
        // GIVEN GitHub's user service, whose error handling the bundled tests pin
        // WHEN it runs through the matrix
        let report = try await TestEnvironment.isolated {
            try await FaultMatrix.run(GitHubUserService(login: "octocat"), replaying: "github/users", client: Self.client)
        }

        // THEN every row passes, the cassette's error templates among them, and the table says so
        #expect(report.failures.isEmpty, "\(report)")
        let faults = report.rows.map(\.case.fault)
        #expect(faults.contains("service-error=rate_limit"))
        #expect(faults.contains("stall"))
        #expect(
            try Self.row("status=503", of: report).description
                == "status=503 | .service(.httpStatus(503)) | .service(.httpStatus(503)) after 0 retries | pass")
        #expect(report.description.hasPrefix("GitHubUserService on github/users: \(report.rows.count) faults, 0 failed, in "))
        print("fault matrix, GitHubUserService with a 1 s timeout: \(report.rows.count) faults in \(report.elapsed)")
    }

    /// A service that swallows a body it cannot read: the user comes back `nil` instead of an error.
    struct SwallowingProfileService: WebService {
        let base = GitHubUserService(login: "octocat")
        var endpoint: String { base.endpoint }
        func configure(_ request: inout URLRequest) { base.configure(&request) }
        func serviceError(in reply: RawResponse) -> WebServiceError.Service? { base.serviceError(in: reply) }
        func response(from json: JSON) throws -> GitHubUserProfile? { try? base.response(from: json) }
        func decodeResponse(_ reply: RawResponse) throws -> GitHubUserProfile? { try? base.decodeResponse(reply) }
    }

    @Test func timedRow_runsOnTheVirtualClock_unlessTheCallUsesASessionOfItsOwn() async throws {
        // GIVEN the matrix's 150 ms latency row
        let latency = try #require(
            try FaultMatrix.cases(for: GitHubUserService.self, replaying: "github/users", client: Self.client).first { $0.fault == "latency=150ms" })
        // WHEN the service runs through it, and a call that sends through a URLSession of its own does
        let service = try await TestEnvironment.isolated {
            try await FaultMatrix.run(GitHubUserService(login: "octocat"), replaying: "github/users", client: Self.client, only: latency)
        }
        let ownSession = try await TestEnvironment.isolated {
            try await FaultMatrix.run("OwnSession.profile", replaying: "github/users", client: Self.client, only: latency) { client in
                let session = URLSession(configuration: .ephemeral)
                defer { session.finishTasksAndInvalidate() }
                let (data, _) = try await session.data(from: client.baseURL.appendingPathComponent("users/octocat"))
                return data.count
            }
        }
        // THEN the service's row took exactly the latency on the clock, and the other row, which the clock could
        // not see, says it ran in real time
        let onClock = try Self.row("latency=150ms", of: service)
        #expect(onClock.passed == true)
        #expect(onClock.virtualElapsed == .milliseconds(150))
        #expect(onClock.time.hasPrefix("0.15 s virtual, "))
        let realTime = try Self.row("latency=150ms", of: ownSession)
        #expect(realTime.passed == true)
        #expect(realTime.virtualElapsed == nil)
        #expect(realTime.time.hasSuffix(" real-time"))
        #expect(realTime.elapsed >= .milliseconds(150))
    }

    @Test func serviceThatSwallowsAnUnreadableBody_isCaught_byTheSentenceNamingTheFault() async throws {
        // GIVEN a service that turns an undecodable body into a nil profile
        // WHEN it runs through the matrix
        let report = try await TestEnvironment.isolated {
            try await FaultMatrix.run(SwallowingProfileService(), replaying: "github/users", client: Self.client)
        }

        // THEN the body faults fail, each in one sentence naming the fault, and nothing else does
        #expect(
            report.failures == [
                "corrupt-body: expected .service(.undecodableBody) or .service(.wrongContentType), got success: \(Self.nilProfile) after 0 retries",
                "empty-body: expected .service(.undecodableBody) or .service(.wrongContentType), got success: \(Self.nilProfile) after 0 retries",
            ] + Self.contentTypeFailure, "\(report)")
        #expect(
            try Self.row("corrupt-body", of: report).description
                == "corrupt-body | .service(.undecodableBody) or .service(.wrongContentType) | success: \(Self.nilProfile) after 0 retries | FAIL")
    }

    /// A row's `got` for the swallowing service: its `nil` beside the baseline's profile, shortened.
    static let nilProfile = #"nil (baseline: GitHubUserProfile(user: ExampleServices.GitHubUser(login: "…)"#

    /// Whether the swallowing service also swallows a wrong content type: only when ServiceKit reports it from
    /// the decoding the service replaced.
    static let contentTypeFailure = [
        "content-type=text/html: expected .service(.undecodableBody) or .service(.wrongContentType), got success: \(nilProfile) after 0 retries"
    ]

    /// A repository that shows a placeholder whatever goes wrong: the swallowed error the matrix exists for.
    struct SwallowingRepository: Sendable {
        func profileName(_ client: WebServiceClient) async -> String {
            (try? await client.send(GitHubUserService(login: "octocat")).name) ?? "someone"
        }
    }

    @Test func asyncCallThatSwallowsA503_isCaught() async throws {
        // GIVEN a repository method that turns every error into a placeholder
        // WHEN it runs through the matrix
        let report = try await TestEnvironment.isolated {
            try await FaultMatrix.run("SwallowingRepository.profileName", replaying: "github/users", client: Self.client) { client in
                await SwallowingRepository().profileName(client)
            }
        }

        // THEN the 503 row fails with the sentence the README quotes, showing the placeholder beside the baseline's
        #expect(
            report.failures.contains(#"status=503: expected .service(.httpStatus(503)), got success: "someone" (baseline: "The Octocat") after 0 retries"#),
            "\(report)")
        #expect(report.failures.contains(#"reset: expected .network(...), got success: "someone" (baseline: "The Octocat") after 0 retries"#), "\(report)")
    }

    @Test func asyncCallWithDeclaredFallbacks_passesEveryRow() async throws {
        // GIVEN a repository method that shows a cached name offline, and rethrows service errors
        let cached = "The Octocat (cached)"
        // WHEN it runs with that fallback declared for the network family
        let report = try await TestEnvironment.isolated {
            try await FaultMatrix.run(
                "CachingRepository.profileName", replaying: "github/users", client: Self.client,
                overrides: [.expect(family: .network, .fallback(cached), because: "offline shows the cache")]
            ) { client in
                do {
                    return try await client.send(GitHubUserService(login: "octocat")).name ?? ""
                } catch let error as WebServiceError where error.family == .network {
                    return cached
                }
            }
        }

        // THEN every row passes, the network rows with the reason printed
        #expect(report.failures.isEmpty, "\(report)")
        #expect(
            try Self.row("reset", of: report).description
                == #"reset | the fallback The Octocat (cached) | success: "The Octocat (cached)" (baseline: "The Octocat") after 0 retries | pass (offline shows the cache)"#
        )
    }

    @Test func retryPolicy_overcomesAFaultThatFiresOnce_withARecordedSleep() async throws {
        // GIVEN a client that retries once, without jitter
        let client: @Sendable (URL) -> WebServiceClient = {
            WebServiceClient(baseURL: $0, configuration: .init(timeout: 1, retryPolicy: RetryPolicy(maxAttempts: 2, jitter: 0)))
        }
        // WHEN the service runs through the matrix
        let report = try await TestEnvironment.isolated {
            try await FaultMatrix.run(GitHubUserService(login: "octocat"), replaying: "github/users", client: client)
        }

        // THEN a 503 that fires once ends in the baseline's value, after one retry that waited the Retry-After
        #expect(report.failures.isEmpty, "\(report)")
        let row = try #require(report.rows.first { $0.case.fault == "status=503,when=first:1" })
        #expect(row.passed == true)
        #expect(row.sleeps == [1])
        #expect(row.got == "success after 1 retry (slept 1 s)")
    }

    @Test func stream_getsTheStreamRows() async throws {
        // GIVEN the chat completions stream, whose client's base URL ends in /v1
        let question = ChatCompletionsService(model: "gpt-4o-mini", messages: [.user("Say hello.")])
        let client: @Sendable (URL) -> WebServiceClient = {
            WebServiceClient(baseURL: $0.appendingPathComponent("v1"), configuration: .init(timeout: 1))
        }
        // WHEN it runs through the matrix, faults after two events
        let report = try await TestEnvironment.isolated {
            try await FaultMatrix.run(question, replaying: "chat/completions", eventsBeforeFault: 2, client: client)
        }

        // THEN the stream rows ran and passed, each error after exactly two events
        #expect(report.failures.isEmpty, "\(report)")
        let faults = report.rows.map(\.case.fault)
        #expect(faults.contains("truncate=event:2"))
        #expect(faults.contains("stall=event:2"))
        #expect(faults.contains("error-event=server_error,after=2"))
        let stall = try #require(report.rows.first { $0.case.fault == "stall=event:2" })
        #expect(stall.got == ".network(.timedOut) after 2 events, after 0 retries")
    }

    @Test func overridesAndSkips_printTheirReasons() async throws {
        // GIVEN an exact expectation for 404s and a skipped stall
        let overrides: [FaultMatrix.Override] = [
            .expect("service-error=not_found", .error(.service(.httpStatus(404, message: "Not Found"))), because: "the profile screen says who is missing"),
            .skip("stall", because: "the screen has its own deadline"),
        ]
        // WHEN the service runs through the matrix
        let report = try await TestEnvironment.isolated {
            try await FaultMatrix.run(GitHubUserService(login: "octocat"), replaying: "github/users", client: Self.client, overrides: overrides)
        }

        // THEN both reasons are in the table, and the skipped row did not run
        #expect(report.failures.isEmpty, "\(report)")
        #expect(try Self.row("service-error=not_found", of: report).verdict == "pass (the profile screen says who is missing)")
        #expect(try Self.row("stall", of: report).description == "stall | .network(.timedOut) |  | skipped: the screen has its own deadline")
        #expect(report.description.contains("skipped: the screen has its own deadline"))
    }

    @Test func overrideOfAnUnknownFault_throwsOneSentence() throws {
        // GIVEN an override whose fault is no spec
        // WHEN the matrix is built, THEN it refuses, naming it
        let error = #expect(throws: FaultMatrixError.self) {
            try FaultMatrix.cases(for: GitHubUserService.self, replaying: "github/users", overrides: [.skip("stal", because: "typo")])
        }
        #expect(
            error?.description
                == "the override for 'stal' names no fault of the matrix and is not a fault spec: invalid fault spec 'stal': 'stal' is not a fault kind; use one of \(Fault.kindNames.joined(separator: ", "))"
        )
    }

    @Test func failingBaseline_throwsOneSentence() async throws {
        // GIVEN a call the cassette answers with a 404
        // WHEN it runs through the matrix, THEN nothing runs under faults, and the sentence says why
        let error = await #expect(throws: FaultMatrixError.self) {
            try await TestEnvironment.isolated {
                try await FaultMatrix.run(GitHubUserService(login: "no-such-user-xyz"), replaying: "github/users", client: Self.client)
            }
        }
        #expect(
            error?.description
                == "GitHubUserService on github/users: the call must succeed without faults before faults can tell anything, but it ended in .service(.httpStatus(404)) after 0 retries (The server could not complete the request (HTTP 404): Not Found.)"
        )
    }

    /// A repository that ignores the client it is given and waits 30 s on its own, run under the stall alone
    /// with a margin of one second: the run is cancelled at every attempt's timeout plus the margin, and its row
    /// fails saying so. (One attempt of half a second: 1.5 s; three of 2 s, the baseline having the whole 7 s: 7 s.)
    @Test(arguments: [(0.5, 1, "1.5 s"), (2.0, 3, "7 s")])
    func callThatOutlivesItsDeadline_isCancelledAtEveryAttemptsTimeoutPlusTheMargin(timeout: Double, attempts: Int, deadline: String) async throws {
        let client: @Sendable (URL) -> WebServiceClient = {
            WebServiceClient(
                baseURL: $0, configuration: .init(timeout: timeout, retryPolicy: attempts > 1 ? RetryPolicy(maxAttempts: attempts, jitter: 0) : nil))
        }
        let stall = try #require(
            try FaultMatrix.cases(for: GitHubUserService.self, replaying: "github/users", client: client)
                .first { $0.fault == "stall" })
        let report = try await TestEnvironment.isolated {
            try await FaultMatrix.run(
                "PatientRepository.profile", replaying: "github/users", client: client, only: stall,
                margin: .seconds(1)
            ) { given in
                let own = WebServiceClient(baseURL: given.baseURL, configuration: .init(timeout: 30))
                return try await own.send(GitHubUserService(login: "octocat")).user.login
            }
        }
        #expect(report.failures == ["stall: expected .network(.timedOut), got the row never ended: still running after \(deadline) of real time"])
    }

    /// A baseline slower than the row's deadline, as a suite starting all its tests on a busy machine makes it:
    /// it still gives the rows their value, since it has at least the default margin.
    @Test func baselineSlowerThanTheMargin_stillRuns_theRowsKeepTheirDeadline() async throws {
        let client: @Sendable (URL) -> WebServiceClient = { WebServiceClient(baseURL: $0, configuration: .init(timeout: 0.5)) }
        let status = try #require(
            try FaultMatrix.cases(for: GitHubUserService.self, replaying: "github/users", client: client)
                .first { $0.fault == "status=503" })
        let calls = Lock(0)
        // GIVEN a call whose first run (the baseline) takes 2 s, past its 0.5 s timeout plus a 1 s margin
        let report = try await TestEnvironment.isolated {
            try await FaultMatrix.run("SlowStart.profile", replaying: "github/users", client: client, only: status, margin: .seconds(1)) { client in
                if calls.withLock({
                    $0 += 1; return $0
                }) == 1 {
                    try await Task.sleep(for: .seconds(2))
                }
                return try await client.send(GitHubUserService(login: "octocat")).user.login
            }
        }
        // THEN the baseline's value stands, and the row is judged as usual
        #expect(report.failures.isEmpty, "\(report)")
        #expect(report.rows.map(\.got) == [".service(.httpStatus(503)) after 0 retries"], "\(report)")
    }

    @Test func stall_withRetries_endsTimedOutAfterEveryAttempt() async throws {
        // GIVEN a client with a 2 s timeout (its baseline must not time out under ThreadSanitizer) that tries
        // three times, without jitter, and a margin long enough that no machine's load cuts the run short (the
        // deadline itself is pinned below and in FaultMatrixVerdictTests)
        let client: @Sendable (URL) -> WebServiceClient = {
            WebServiceClient(baseURL: $0, configuration: .init(timeout: 2, retryPolicy: RetryPolicy(maxAttempts: 3, jitter: 0)))
        }
        let stall = try #require(
            try FaultMatrix.cases(for: GitHubUserService.self, replaying: "github/users", client: client)
                .first { $0.fault == "stall" })
        // WHEN the service runs under the stall alone
        let report = try await TestEnvironment.isolated {
            try await FaultMatrix.run(
                GitHubUserService(login: "octocat"), replaying: "github/users", client: client, only: stall,
                margin: .seconds(30))
        }

        // THEN it passes as timed out, after both retries and their backoffs
        #expect(report.failures.isEmpty, "\(report)")
        #expect(try Self.row("stall", of: report).got == ".network(.timedOut) after 2 retries (slept 0.5 s, 1 s)")
    }

    @Test func faultThatNeverFires_failsItsRow() async throws {
        // GIVEN an added row whose fault is aimed at a path the call never asks for
        let overrides: [FaultMatrix.Override] = [.expect("status=503,path=/nowhere", .baselineValue, because: "aimed elsewhere")]
        let row = try #require(
            try FaultMatrix.cases(
                for: GitHubUserService.self, replaying: "github/users", client: Self.client,
                overrides: overrides
            ).last)
        // WHEN it runs
        let report = try await TestEnvironment.isolated {
            try await FaultMatrix.run(
                GitHubUserService(login: "octocat"), replaying: "github/users", client: Self.client,
                overrides: overrides, only: row)
        }

        // THEN the row fails: a fault that never fired proves nothing
        #expect(report.failures == ["status=503,path=/nowhere: expected the baseline value, got the fault never fired"])
    }

    @Test func callThatNeverUsesItsClient_underAFault_saysTheFaultNeverFired() async throws {
        // GIVEN a call that answers from memory, never asking the server, run under a 503
        let status = try #require(
            try FaultMatrix.cases(for: GitHubUserService.self, replaying: "github/users", client: Self.client)
                .first { $0.fault == "status=503" })
        let report = try await TestEnvironment.isolated {
            try await FaultMatrix.run("MemoryRepository.profileName", replaying: "github/users", client: Self.client, only: status) { _ in
                "The Octocat"
            }
        }
        // THEN the row fails saying the fault never fired, not that the call succeeded
        #expect(report.failures == ["status=503: expected .service(.httpStatus(503)), got the fault never fired"])
    }

    /// Counts the calls running at once, and the most it has seen.
    final class InFlight: Sendable {
        private let counts = Lock((now: 0, most: 0))
        var most: Int { counts.withLock { $0.most } }
        var now: Int { counts.withLock { $0.now } }
        func enter() {
            counts.withLock {
                $0.now += 1; $0.most = max($0.most, $0.now)
            }
        }
        func leave() { counts.withLock { $0.now -= 1 } }
    }

    @Test func asyncCall_isIdempotentByDefault_soARetryingClientGetsTheRetryRows() async throws {
        // GIVEN a client that retries once
        let client: @Sendable (URL) -> WebServiceClient = {
            WebServiceClient(baseURL: $0, configuration: .init(timeout: 1, retryPolicy: RetryPolicy(maxAttempts: 2, jitter: 0)))
        }
        // WHEN an async call runs through the matrix without saying whether it is idempotent
        let report = try await TestEnvironment.isolated {
            try await FaultMatrix.run("ProfileRepository.name", replaying: "github/users", client: client) { client in
                try await client.send(GitHubUserService(login: "octocat")).name ?? ""
            }
        }
        // THEN it is taken as idempotent: the faults a retry overcomes are rows, and they pass
        #expect(report.rows.contains { $0.case.fault == "status=503,when=first:1" && $0.passed == true }, "\(report)")
    }

    @Test func parallelOfZero_runsTheRowsOneAtATime_noneLeftOut() async throws {
        let report = try await TestEnvironment.isolated {
            try await FaultMatrix.run(GitHubUserService(login: "octocat"), replaying: "github/users", client: Self.client, parallel: 0)
        }
        let rows = try FaultMatrix.cases(for: GitHubUserService.self, replaying: "github/users", client: Self.client)
        #expect(report.rows.map(\.case.fault) == rows.map(\.fault))
    }

    /// Under MOCKSERVER_LIVE=1 and drift, the baseline talks to the upstream and the report says, naming the
    /// mode, why no row ran.
    @Test(arguments: [(["MOCKSERVER_LIVE": "1"], "MOCKSERVER_LIVE=1"), (["MOCKSERVER_RECORD": "drift"], "MOCKSERVER_RECORD=drift")])
    func modesWithoutReplay_runTheBaselineAlone_andSaySo(environment: [String: String], spelling: String) async throws {
        // The baseline goes through two servers; a 1 s client timeout once ran out under ThreadSanitizer, and
        // no row runs here, so the client may wait longer.
        let patient: @Sendable (URL) -> WebServiceClient = { WebServiceClient(baseURL: $0, configuration: .init(timeout: 30)) }
        try await withMockServer(cassettes: [try Recordings.cassette("github/users")], configuration: .init(faults: .none)) { upstream in
            let report = try await TestEnvironment.$override.withValue(environment) {
                try await FaultMatrix.run(
                    GitHubUserService(login: "octocat"), replaying: "github/users",
                    upstream: upstream.baseURL?.absoluteString, client: patient, margin: .seconds(60))
            }
            let rows = try FaultMatrix.cases(for: GitHubUserService.self, replaying: "github/users", client: Self.client).count
            #expect(report.rows.isEmpty)
            #expect(report.failures.isEmpty)
            #expect(
                report.notice
                    == "faults apply only to replays, so under \(spelling) the matrix ran only its baseline, against the upstream, and skipped its \(rows) rows"
            )
            #expect(report.description == "GitHubUserService on github/users: \(report.notice ?? "")")
            #expect(upstream.journal.entries.count == 1)
        }
    }

    @Test(arguments: [1, 2])
    func parallel_runsAtMostThatManyCallsAtOnce(parallel: Int) async throws {
        // GIVEN a call that stays in flight until more calls than `parallel` run, or for at most a fifth of a
        // second (a wait for other calls, so that too many at once would meet; it never waits for a server)
        let inFlight = InFlight()
        let report = try await TestEnvironment.isolated {
            // A margin of a minute: this test is about how many run at once, not about deadlines, and on a
            // loaded machine the old default of 5 s was once not enough for a row.
            try await FaultMatrix.run(
                "WaitingRepository.profileName", replaying: "github/users", client: Self.client, parallel: parallel,
                margin: .seconds(60)
            ) { client in
                inFlight.enter()
                defer { inFlight.leave() }
                for _ in 0..<20 where inFlight.now <= parallel {
                    try await Task.sleep(for: .milliseconds(10))
                }
                return try await client.send(GitHubUserService(login: "octocat")).user.login
            }
        }
        // WHEN every row ran, THEN never more than `parallel` calls at once
        #expect(report.rows.count > 20)
        #expect(inFlight.most <= parallel)
    }

    /// A transport that never returns a 503: the call hangs there until it is cancelled.
    struct HangingOn503: HTTPTransport {
        let real = URLSessionTransport()
        func send(_ request: URLRequest, uploadProgress: UploadProgressHandler?) async throws -> TransportResponse {
            let response = try await real.send(request, uploadProgress: uploadProgress)
            if response.statusCode == 503 { try await Task.sleep(for: .seconds(120)) }
            return response
        }
        func stream(_ request: URLRequest) async throws -> StreamedResponse {
            let response = try await real.stream(request)
            if response.statusCode == 503 { try await Task.sleep(for: .seconds(120)) }
            return response
        }
    }

    @Test func defaultMargin_isThirtySeconds_forEveryKindOfCall() async throws {
        // GIVEN clients with a 2 s timeout whose transport hangs on a 503, and a call that does too (2 s, not
        // less: under ThreadSanitizer in the full suite a half-second baseline once timed out)
        let hanging: @Sendable (URL) -> WebServiceClient = {
            WebServiceClient(baseURL: $0, configuration: .init(timeout: 2), transport: HangingOn503())
        }
        let chat: @Sendable (URL) -> WebServiceClient = {
            WebServiceClient(baseURL: $0.appendingPathComponent("v1"), configuration: .init(timeout: 2), transport: HangingOn503())
        }
        let status = try #require(
            try FaultMatrix.cases(for: GitHubUserService.self, replaying: "github/users", client: hanging)
                .first { $0.fault == "status=503" })
        let question = ChatCompletionsService(model: "gpt-4o-mini", messages: [.user("Say hello.")])
        // WHEN each runs under the 503 alone, with the default margin
        async let service = TestEnvironment.isolated {
            try await FaultMatrix.run(GitHubUserService(login: "octocat"), replaying: "github/users", client: hanging, only: status)
        }
        async let stream = TestEnvironment.isolated {
            try await FaultMatrix.run(question, replaying: "chat/completions", client: chat, only: status)
        }
        async let call = TestEnvironment.isolated {
            try await FaultMatrix.run("HangingRepository.profile", replaying: "github/users", client: hanging, only: status) { client in
                try await client.send(GitHubUserService(login: "octocat")).user.login
            }
        }
        // THEN each is cut off at the timeout plus thirty seconds
        let expected = ["status=503: expected .service(.httpStatus(503)), got the row never ended: still running after 32 s of real time"]
        #expect(try await service.failures == expected)
        #expect(try await stream.failures == expected)
        #expect(try await call.failures == expected)
    }

    @Test func stream_withANegativeEventCount_runsItsFaultsBeforeAnyEvent() async throws {
        // GIVEN the chat stream's rows for a negative count of events, which the matrix reads as none
        let client: @Sendable (URL) -> WebServiceClient = {
            WebServiceClient(baseURL: $0.appendingPathComponent("v1"), configuration: .init(timeout: 1))
        }
        let truncate = try #require(
            try FaultMatrix.cases(
                for: ChatCompletionsService.self, replaying: "chat/completions",
                eventsBeforeFault: -1, client: client
            ).first { $0.fault == "truncate=event:0" })
        let question = ChatCompletionsService(model: "gpt-4o-mini", messages: [.user("Say hello.")])
        // WHEN the stream runs with the same count, THEN the row is the run's too, and the stream breaks before any event
        let report = try await TestEnvironment.isolated {
            try await FaultMatrix.run(question, replaying: "chat/completions", eventsBeforeFault: -1, client: client, only: truncate)
        }
        #expect(report.failures.isEmpty, "\(report)")
        #expect(try Self.row("truncate=event:0", of: report).got.contains(" after 0 events,"))
    }

    @Test(arguments: try FaultMatrix.cases(for: GitHubUserService.self, replaying: "github/users", client: client))
    func eachFault_isATestCase(_ fault: FaultMatrix.Case) async throws {
        let report = try await TestEnvironment.isolated {
            try await FaultMatrix.run(GitHubUserService(login: "octocat"), replaying: "github/users", client: Self.client, only: fault)
        }
        #expect(report.rows.map(\.case.fault) == [fault.fault])
        #expect(report.failures.isEmpty, "\(report)")
    }
}

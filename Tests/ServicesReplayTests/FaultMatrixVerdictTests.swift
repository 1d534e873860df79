import Foundation
import ExampleServices
import ServiceKit
@testable import ServiceReplayTesting
import ServiceReplayShared
import Testing

/// How ``FaultMatrix`` judges one run: a stream row's count of events, an override's effect on that count, and
/// the deadline a run gets. The verdicts are checked on outcomes built here, so that each count the network
/// would only give by chance (one event too few or too many) is tried every time.
@Suite struct FaultMatrixVerdictTests {
    /// The matrix's outcome of one run (this target has a `CallOutcome` of its own).
    typealias MatrixOutcome = ServiceReplayTesting.CallOutcome

    /// The chat completions stream's client, as ``FaultMatrixRunTests`` builds it.
    static let chatClient: @Sendable (URL) -> WebServiceClient = {
        WebServiceClient(baseURL: $0.appendingPathComponent("v1"), configuration: .init(timeout: 1))
    }

    /// The stream rows of the chat completions matrix with faults after two events, `overrides` applied.
    static func streamRows(overrides: [FaultMatrix.Override] = []) throws -> [FaultMatrix.Case] {
        try FaultMatrix.cases(
            for: ChatCompletionsService.self, replaying: "chat/completions", eventsBeforeFault: 2,
            client: chatClient, overrides: overrides)
    }

    /// The row of `fault` in `rows`.
    static func row(_ fault: String, in rows: [FaultMatrix.Case]) throws -> FaultMatrix.Case {
        try #require(rows.first { $0.fault == fault }, "no row \(fault) in \(rows.map(\.fault))")
    }

    /// The report's row for `row` run to `outcome`, as the runner builds it.
    static func reported(_ row: FaultMatrix.Case, _ outcome: MatrixOutcome) -> FaultMatrix.Report.Row {
        FaultMatrix.Report.Row(
            case: row, got: outcome.description, passed: row.expectation.isMet(by: outcome),
            sleeps: outcome.sleeps, elapsed: .zero, outcome: outcome)
    }

    /// One stream row, and an error that meets its expectation but for the count of events.
    struct StreamRow: Sendable, CustomTestStringConvertible {
        let fault: String
        let error: WebServiceError
        let expected: String
        var testDescription: String { fault }
    }

    static let streamRowsAfterTwo: [StreamRow] = [
        StreamRow(fault: "truncate=event:2", error: .network(.connectionLost), expected: ".network(...) after 2 events"),
        StreamRow(fault: "stall=event:2", error: .network(.timedOut), expected: ".network(.timedOut) after 2 events"),
        StreamRow(
            fault: "error-event=server_error,after=2", error: .service(.errorPayload(code: "server_error", message: "boom")),
            expected: ".service(...) after 2 events"),
    ]

    @Test(arguments: streamRowsAfterTwo)
    func streamRow_passesOnlyAfterExactlyItsEvents_andGotSaysHowMany(stream: StreamRow) throws {
        // GIVEN a stream row that expects its error after two events
        let row = try Self.row(stream.fault, in: try Self.streamRows())
        #expect("\(row.expectation)" == stream.expected)

        // WHEN the right error ends the call after one, two and three events
        let rows = [1, 2, 3].map { Self.reported(row, MatrixOutcome(result: .error(stream.error), events: $0)) }

        // THEN only two events pass, and the got column says how many arrived
        #expect(rows.map(\.passed) == [false, true, false])
        let spelling = stream.error.reason.matrixSpelling
        #expect(
            rows.map(\.got) == [
                "\(spelling) after 1 event, after 0 retries", "\(spelling) after 2 events, after 0 retries",
                "\(spelling) after 3 events, after 0 retries",
            ])
        #expect(rows[2].failure == "\(stream.fault): expected \(stream.expected), got \(spelling) after 3 events, after 0 retries")
    }

    @Test func streamRow_endedWithoutACount_fails() throws {
        // GIVEN a stream row WHEN the outcome carries no count of events (a plain call's) THEN it does not pass
        let row = try Self.row("truncate=event:2", in: try Self.streamRows())
        #expect(!row.expectation.isMet(by: MatrixOutcome(result: .error(.network(.connectionLost)), events: nil)))
    }

    /// Overrides of the `truncate=event:2` row that state no count of their own.
    static let streamOverrides: [(String, FaultMatrix.Override, String)] = [
        ("fault override", .expect("truncate=event:2", .networkError, because: "any lost stream will do"), ".network(...) after 2 events"),
        (
            "exact error", .expect("truncate=event:2", .error(.network(.connectionLost)), because: "libcurl's word for it"),
            ".network(.connectionLost) after 2 events"
        ),
        ("family override", .expect(family: .network, .networkError, because: "any lost stream will do"), ".network(...) after 2 events"),
    ]

    @Test(arguments: streamOverrides)
    func overriddenStreamRow_keepsItsEventCount(name: String, override: FaultMatrix.Override, expected: String) throws {
        // GIVEN the stream row truncate=event:2 overridden with an expectation that counts no events
        let row = try Self.row("truncate=event:2", in: try Self.streamRows(overrides: [override]))

        // THEN the row still reads "after 2 events", with the override's reason
        #expect("\(row.expectation)" == expected)
        #expect(row.reason == override.reason)
        // AND a call that fails before any event does not pass it, while one that fails after two does
        #expect(!row.expectation.isMet(by: MatrixOutcome(result: .error(.network(.connectionLost)), events: 0)))
        #expect(row.expectation.isMet(by: MatrixOutcome(result: .error(.network(.connectionLost)), events: 2)))
    }

    @Test func deadline_coversEveryAttemptOfTheRetryPolicy_plusTheMargin() throws {
        // GIVEN the shape of a client with a 1 s timeout and three attempts, and a margin of half a second
        let shape = FaultMatrix.Shape(eventsBeforeFault: nil, idempotent: true, timeout: 1, attempts: 3, templates: [])
        let runner = FaultMatrix.Runner<String>(
            subject: "S", cassette: "c", folder: URL(fileURLWithPath: "/"), upstream: nil, test: nil, recordedAt: nil, shape: shape,
            margin: .milliseconds(500), timing: .virtual, makeClient: { WebServiceClient(baseURL: $0) },
            call: { _ in (.success(""), nil) })
        // THEN a row may take every attempt's timeout plus the margin, 3.5 s, not one timeout's 1.5 s, and the
        // baseline at least the default margin past them, whatever the margin
        #expect(runner.deadline == .milliseconds(3500))
        #expect(runner.baselineDeadline == .seconds(33))
        let patient = FaultMatrix.Runner<String>(
            subject: "S", cassette: "c", folder: URL(fileURLWithPath: "/"), upstream: nil, test: nil, recordedAt: nil, shape: shape,
            margin: .seconds(40), timing: .virtual, makeClient: { WebServiceClient(baseURL: $0) }, call: { _ in (.success(""), nil) })
        #expect(patient.baselineDeadline == .seconds(43))
    }

    // MARK: - The rows

    /// The rows every call gets, in the order of the fault matrix article's table
    /// (`Sources/ServiceReplayTesting/ServiceReplayTesting.docc/TheFaultMatrix.md`, once the README's), for a cassette with GitHub's four templates and a
    /// client whose timeout is 1 s.
    static func plainRows(retrying: Bool) -> [String] {
        var rows = ["refuse → .network(...)", "reset → .network(...)", "empty → .network(...)", "truncate=status-line → .network(...)"]
        if !URLSessionQuirks.trapsOnTruncatedHeaders { rows.append("truncate=headers → .network(...)") }
        rows += [
            "truncate=body:10 → .network(...)", "malformed-chunk → .network(...)", "garbage → .network(...)",
            "stall → .network(.timedOut)", "latency=1500ms → .network(.timedOut)",
            "latency=150ms → the baseline value", "latency=50..250ms → the baseline value", "throttle=64KB/s → the baseline value",
            "status=500 → .service(.httpStatus(500))", "status=502 → .service(.httpStatus(502))",
            "status=503 → .service(.httpStatus(503))", "status=504 → .service(.httpStatus(504))",
            "status=429 → .service(.rateLimited)",
            "corrupt-body → .service(.undecodableBody) or .service(.wrongContentType)",
            "empty-body → .service(.undecodableBody) or .service(.wrongContentType)",
            "content-type=text/html → .service(.undecodableBody) or .service(.wrongContentType)",
        ]
        rows += ["not_found", "rate_limit", "rate_limit_429", "secondary_rate_limit"]
            .map { "service-error=\($0) → .service(.httpStatus, .rateLimited or .errorPayload)" }
        if retrying {
            rows += ["reset,when=first:1", "empty,when=first:1", "truncate=body:10,when=first:1", "status=503,when=first:1", "status=429,when=first:1"]
                .map { "\($0) → the baseline value" }
        }
        return rows
    }

    static func client(timeout: TimeInterval, attempts: Int? = nil) -> @Sendable (URL) -> WebServiceClient {
        { WebServiceClient(baseURL: $0, configuration: .init(timeout: timeout, retryPolicy: attempts.map { RetryPolicy(maxAttempts: $0) })) }
    }

    @Test func plainCall_getsTheREADMEsRows_inItsOrder() throws {
        let rows = try FaultMatrix.cases(for: GitHubUserService.self, replaying: "github/users", client: Self.client(timeout: 1))
        #expect(rows.map(\.description) == Self.plainRows(retrying: false))
        #expect(rows.allSatisfy { $0.reason == nil && !$0.isSkipped })
    }

    @Test func retryingGET_getsTheRowsARetryOvercomes_andAPOSTDoesNot() throws {
        // GIVEN a client that may try twice
        let retrying = Self.client(timeout: 1, attempts: 2)
        // WHEN a GET's rows are built, THEN the faults that fire once are overcome by the retry
        #expect(
            try FaultMatrix.cases(for: GitHubUserService.self, replaying: "github/users", client: retrying).map(\.description)
                == Self.plainRows(retrying: true))
        // AND a POST, never retried, gets none of them; nor does a GET whose client tries once
        #expect(
            try FaultMatrix.cases(for: GitHubUserService.self, method: .post, replaying: "github/users", client: retrying).map(\.description)
                == Self.plainRows(retrying: false))
        #expect(
            try FaultMatrix.cases(for: GitHubUserService.self, replaying: "github/users", client: Self.client(timeout: 1, attempts: 1))
                .map(\.description) == Self.plainRows(retrying: false))
    }

    @Test func stream_getsItsDamagedBodyAndStreamRows_andNoRetryRows() throws {
        // GIVEN the chat stream, faults after two events, a client that may retry
        let rows = try FaultMatrix.cases(
            for: ChatCompletionsService.self, replaying: "chat/completions", eventsBeforeFault: 2,
            client: { WebServiceClient(baseURL: $0, configuration: .init(timeout: 1, retryPolicy: RetryPolicy(maxAttempts: 2))) })
        let text = rows.map(\.description)
        // THEN a damaged body may end either way, and the stream rows come last, each after two events
        #expect(text.contains("corrupt-body → .network(...) or .service(...)"))
        #expect(text.contains("empty-body → .network(...) or .service(...)"))
        #expect(text.contains("content-type=text/html → .service(.undecodableBody) or .service(.wrongContentType)"))
        #expect(
            Array(text.suffix(5)) == [
                "truncate=event:2 → .network(...) after 2 events", "stall=event:2 → .network(.timedOut) after 2 events",
                "error-event=invalid_api_key,after=2 → .service(...) after 2 events",
                "error-event=rate_limit_exceeded,after=2 → .service(...) after 2 events",
                "error-event=server_error,after=2 → .service(...) after 2 events",
            ])
        #expect(!text.contains { $0.contains("when=first:1") })
    }

    @Test func stream_withANegativeEventCount_faultsBeforeAnyEvent() throws {
        let faults = try FaultMatrix.cases(
            for: ChatCompletionsService.self, replaying: "chat/completions", eventsBeforeFault: -3,
            client: Self.chatClient
        ).map(\.fault)
        #expect(faults.contains("truncate=event:0"))
        #expect(faults.contains("stall=event:0"))
    }

    @Test(arguments: [(0.25, "latency=750ms"), (1, "latency=1500ms"), (4, "latency=6000ms")])
    func lateLatency_isBeyondTheTimeout_byHalfASecondOrHalfTheTimeout(timeout: TimeInterval, fault: String) throws {
        let rows = try FaultMatrix.cases(for: GitHubUserService.self, replaying: "github/users", client: Self.client(timeout: timeout))
        #expect(rows.filter { $0.fault.hasPrefix("latency=") && $0.expectation.description == ".network(.timedOut)" }.map(\.fault) == [fault])
    }

    @Test func overrides_changeTheirRows_familiesOnlyWhereNoFaultOverrideDid_andAddUnknownFaults() throws {
        let overrides: [FaultMatrix.Override] = [
            .expect(family: .network, .fallback("cached"), because: "offline shows the cache"),
            .expect("reset", .error(.network(.connectionLost)), because: "exact"),
            .skip("stall", because: "own deadline"),
            .expect("status=418", .serviceError, because: "added"),
        ]
        let rows = try FaultMatrix.cases(
            for: GitHubUserService.self, replaying: "github/users", client: Self.client(timeout: 1),
            overrides: overrides)
        let reset = try Self.row("reset", in: rows)
        #expect(reset.description == "reset → .network(.connectionLost)")
        #expect(reset.reason == "exact")
        #expect(try Self.row("refuse", in: rows).description == "refuse → the fallback cached")
        #expect(try Self.row("refuse", in: rows).reason == "offline shows the cache")
        // The skip wins over the family override
        let stall = try Self.row("stall", in: rows)
        #expect(stall.isSkipped)
        #expect(stall.reason == "own deadline")
        // Service rows are left alone, and the unknown fault is added last
        #expect(try Self.row("status=503", in: rows).reason == nil)
        #expect(rows.last?.description == "status=418 → .service(...)")
        #expect(rows.count == Self.plainRows(retrying: false).count + 1)
    }

    @Test func cases_areEqualWhenTheirFaultsAre() throws {
        let plain = try FaultMatrix.cases(for: GitHubUserService.self, replaying: "github/users", client: Self.client(timeout: 1))
        let overridden = try FaultMatrix.cases(
            for: GitHubUserService.self, replaying: "github/users", client: Self.client(timeout: 1),
            overrides: [.expect("reset", .baselineValue, because: "retried elsewhere")])
        let reset = try Self.row("reset", in: overridden)
        #expect(try Self.row("reset", in: plain) == reset)
        #expect(try Self.row("reset", in: plain).hashValue == reset.hashValue)
        #expect(try Self.row("empty", in: plain) != reset)
        #expect(reset.testDescription == "reset")
    }

    // MARK: - Verdicts

    typealias Verdict = (expectation: FaultMatrix.Expectation, outcome: MatrixOutcome, met: Bool)

    static let value = MatrixOutcome(result: .value("x"), events: nil, equalsBaseline: true)
    static func failed(_ error: WebServiceError) -> MatrixOutcome { MatrixOutcome(result: .error(error), events: nil) }
    static let timedOut = failed(.network(.timedOut))
    static let lost = failed(.network(.connectionLost))
    static let status503 = failed(.service(.httpStatus(503, message: nil)))
    static let status500 = failed(.service(.httpStatus(500, message: nil)))
    static let limited = failed(.service(.rateLimited(retryAfter: 1)))
    static let payload = failed(.service(.errorPayload(code: "x", message: nil)))
    static let undecodable = failed(.service(.undecodableBody))
    static let wrongType = failed(.service(.wrongContentType("text/html")))
    static let missing = failed(.service(.missingField("$.a")))

    static let verdicts: [Verdict] = [
        (.baselineValue, value, true),
        (.baselineValue, MatrixOutcome(result: .value("y"), events: nil, equalsBaseline: false), false),
        (.baselineValue, lost, false),
        (.fallback("x"), value, true),
        (.fallback("x"), MatrixOutcome(result: .value("y"), events: nil), false),
        (.fallback("x"), lost, false),
        (.networkError, lost, true),
        (.networkError, status503, false),
        (.networkError, value, false),
        (.serviceError, status503, true),
        (.serviceError, lost, false),
        (.oneOf([.network(.timedOut), .network(.connectionLost)]), lost, true),
        (.oneOf([.network(.timedOut)]), lost, false),
        (.error(.service(.httpStatus(503, message: nil))), status503, true),
        (.error(.service(.httpStatus(503, message: "busy"))), status503, false),
        (.httpStatus(503), failed(.service(.httpStatus(503, message: "busy"))), true),
        (.httpStatus(503), status500, false),
        (.httpStatus(503), limited, false),
        (.httpStatus(503), value, false),
        (.rateLimited, limited, true),
        (.rateLimited, failed(.service(.rateLimited(retryAfter: nil))), true),
        (.rateLimited, failed(.service(.httpStatus(429, message: nil))), false),
        (.recognisedServiceError, status503, true),
        (.recognisedServiceError, limited, true),
        (.recognisedServiceError, payload, true),
        (.recognisedServiceError, failed(.service(.preconditionFailed)), true),
        (.recognisedServiceError, failed(.service(.notModified)), true),
        (.recognisedServiceError, failed(.service(.invalidRequest("A GET request has no body."))), false),
        (.recognisedServiceError, undecodable, false),
        (.recognisedServiceError, missing, false),
        (.recognisedServiceError, lost, false),
        (.unusableBody, undecodable, true),
        (.unusableBody, wrongType, true),
        (.unusableBody, missing, false),
        (.unusableBody, status503, false),
        (.anyError, lost, true),
        (.anyError, status503, true),
        (.anyError, value, false),
        (.timedOut, timedOut, true),
        (.timedOut, MatrixOutcome(result: .neverEnded(.seconds(2))), false),
        (.networkError, MatrixOutcome(result: .notInjected), false),
        (.networkError, MatrixOutcome(result: .foreignError("CancellationError")), false),
    ]

    @Test(arguments: verdicts.indices)
    func expectation_isMetByItsOutcomesOnly(index: Int) {
        let (expectation, outcome, met) = Self.verdicts[index]
        #expect(expectation.isMet(by: outcome) == met, "\(expectation) by \(outcome)")
    }

    // MARK: - Spellings

    @Test func reasons_areSpelledAsTheReportPrintsThem() {
        let spellings: [(WebServiceError.Reason, String)] = [
            (.network(.timedOut), ".network(.timedOut)"),
            (.service(.httpStatus(503, message: "busy")), ".service(.httpStatus(503))"),
            (.service(.rateLimited(retryAfter: 60)), ".service(.rateLimited(60))"),
            (.service(.rateLimited(retryAfter: 1.5)), ".service(.rateLimited(1.5))"),
            (.service(.rateLimited(retryAfter: 1e16)), ".service(.rateLimited(1e+16))"),
            (.service(.rateLimited(retryAfter: nil)), ".service(.rateLimited)"),
            (.service(.errorPayload(code: "maintenance", message: "down")), ".service(.errorPayload(maintenance))"),
            (.service(.errorPayload(code: nil, message: "down")), ".service(.errorPayload(-))"),
            (.service(.undecodableBody), ".service(.undecodableBody)"),
            (.service(.wrongContentType("text/html")), ".service(.wrongContentType(text/html))"),
            (.service(.missingField("$.user.login")), ".service(.missingField($.user.login))"),
            (.service(.invalidField("$.items[1]")), ".service(.invalidField($.items[1]))"),
        ]
        for (reason, spelling) in spellings {
            #expect(reason.matrixSpelling == spelling)
        }
        #expect(
            "\(FaultMatrix.Expectation.oneOf([.network(.connectionLost), .network(.badResponse)]))"
                == ".network(.connectionLost) or .network(.badResponse)")
        #expect("\(FaultMatrix.Expectation.serviceError.after(events: 1))" == ".service(...) after 1 event")
        #expect("\(FaultMatrix.Expectation.fallback(7))" == "the fallback 7")
    }

    @Test func outcomes_areSpelledAsTheGotColumnPrintsThem() {
        #expect("\(MatrixOutcome(result: .value(1), events: nil))" == "success after 0 retries")
        #expect("\(MatrixOutcome(result: .value(1), events: 1))" == "success after 1 event, after 0 retries")
        #expect("\(MatrixOutcome(result: .foreignError("Oops: x"), events: nil))" == "the error Oops: x after 0 retries")
        #expect("\(MatrixOutcome(result: .neverEnded(.milliseconds(2500)), events: 3))" == "the row never ended: still running after 2.5 s of real time")
        #expect("\(MatrixOutcome(result: .notInjected, events: 3))" == "the fault never fired")
        #expect("\(MatrixOutcome(result: .error(.network(.timedOut)), events: nil, sleeps: [1]))" == ".network(.timedOut) after 1 retry (slept 1 s)")
        #expect(
            "\(MatrixOutcome(result: .error(.network(.timedOut)), events: nil, sleeps: [0.5, 1.25, 2]))"
                == ".network(.timedOut) after 3 retries (slept 0.5 s, 1.25 s, 2 s)")
        // Waits are read to the millisecond, as the virtual clock records them, then printed to the hundredth
        #expect("\(MatrixOutcome(result: .value(1), events: nil, sleeps: [0.004502, 0.004498]))" == "success after 2 retries (slept 0.01 s, 0 s)")
        #expect(MatrixOutcome.seconds(.milliseconds(333)) == "0.33 s")
        #expect(MatrixOutcome.seconds(.seconds(12)) == "12 s")
    }

    @Test func timeColumn_givesTheVirtualTimeToTheMillisecond_orSaysRealTime() throws {
        let stall = try Self.row("stall", in: try Self.streamRows(overrides: []))
        func row(_ passed: Bool?, virtual: Duration?) -> FaultMatrix.Report.Row {
            FaultMatrix.Report.Row(case: stall, got: "", passed: passed, sleeps: [], elapsed: .milliseconds(12), virtualElapsed: virtual, outcome: nil)
        }
        #expect(row(true, virtual: .milliseconds(999)).time == "0.999 s virtual, 0.01 s real")
        #expect(row(false, virtual: .seconds(1)).time == "1 s virtual, 0.01 s real")
        #expect(row(true, virtual: nil).time == "0.01 s real-time")
        #expect(row(nil, virtual: .seconds(1)).time == "")
    }

    @Test func report_isATableHeadedByItsSummary_andFailuresAreItsMismatches() throws {
        let rows = try Self.streamRows(overrides: [
            .skip("stall", because: "own deadline"),
            .expect("reset", .networkError, because: "any"),
        ])
        let report = FaultMatrix.Report(
            subject: "Chat on chat/completions",
            rows: [
                Self.reported(try Self.row("status=503", in: rows), Self.status503),
                Self.reported(try Self.row("reset", in: rows), Self.value),
                FaultMatrix.Report.Row(case: try Self.row("stall", in: rows), got: "", passed: nil, sleeps: [], elapsed: .zero, outcome: nil),
                Self.reported(try Self.row("reset", in: rows), Self.lost),
            ], elapsed: .milliseconds(1250))
        #expect(report.failures == ["reset: expected .network(...), got success after 0 retries"])
        #expect(report.rows.map(\.verdict) == ["pass", "FAIL (any)", "skipped: own deadline", "pass (any)"])
        #expect(
            report.description == """
                Chat on chat/completions: 4 faults, 1 failed, in 1.25 s
                fault      | expected                   | got                                        | verdict               | time
                -----------+----------------------------+--------------------------------------------+-----------------------+--------------
                status=503 | .service(.httpStatus(503)) | .service(.httpStatus(503)) after 0 retries | pass                  | 0 s real-time
                reset      | .network(...)              | success after 0 retries                    | FAIL (any)            | 0 s real-time
                stall      | .network(.timedOut)        |                                            | skipped: own deadline |
                reset      | .network(...)              | .network(.connectionLost) after 0 retries  | pass (any)            | 0 s real-time
                """)
    }
}

import Foundation
import ExampleServices
import ServiceKit
@testable import ServiceReplayTesting
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
        try FaultMatrix.cases(for: ChatCompletionsService.self, replaying: "chat/completions", eventsBeforeFault: 2,
                              client: chatClient, overrides: overrides)
    }

    /// The row of `fault` in `rows`.
    static func row(_ fault: String, in rows: [FaultMatrix.Case]) throws -> FaultMatrix.Case {
        try #require(rows.first { $0.fault == fault }, "no row \(fault) in \(rows.map(\.fault))")
    }

    /// The report's row for `row` run to `outcome`, as the runner builds it.
    static func reported(_ row: FaultMatrix.Case, _ outcome: MatrixOutcome) -> FaultMatrix.Report.Row {
        FaultMatrix.Report.Row(case: row, got: outcome.description, passed: row.expectation.isMet(by: outcome),
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
        StreamRow(fault: "error-event=server_error,after=2", error: .service(.errorPayload(code: "server_error", message: "boom")),
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
        #expect(rows.map(\.got) == ["\(spelling) after 1 event, after 0 retries", "\(spelling) after 2 events, after 0 retries",
                                    "\(spelling) after 3 events, after 0 retries"])
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
        ("exact error", .expect("truncate=event:2", .error(.network(.connectionLost)), because: "libcurl's word for it"),
         ".network(.connectionLost) after 2 events"),
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
        let runner = FaultMatrix.Runner<String>(subject: "S", cassette: "c", folder: URL(fileURLWithPath: "/"), recordedAt: nil, shape: shape,
                                                margin: .milliseconds(500), makeClient: { WebServiceClient(baseURL: $0) },
                                                call: { _ in (.success(""), nil) })
        // THEN a run may take every attempt's timeout plus the margin, 3.5 s, not one timeout's 1.5 s
        #expect(runner.deadline == .milliseconds(3500))
    }
}

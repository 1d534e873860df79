import Foundation

extension FaultMatrix {
    /// What a matrix run found: one row per fault (the baseline is not one). ``description`` is the table,
    /// ``failures`` one sentence per mismatch.
    public struct Report: Sendable, CustomStringConvertible {
        /// One run: its case, how it ended and the verdict.
        public struct Row: Sendable, CustomStringConvertible {
            /// The case that ran (or was skipped).
            public let `case`: Case
            /// How the call ended, as the table's `got` column says it; empty for a skipped row.
            public let got: String
            /// Whether the outcome met the expectation; `nil` for a skipped row.
            public let passed: Bool?
            /// The retries' waits the virtual clock recorded, in seconds.
            public let sleeps: [TimeInterval]
            /// How long the run took in real time, server start and stop included.
            public let elapsed: Duration
            /// How long the run took on its virtual clock: the faults' waits and the client's timeouts and
            /// retries; `nil` when the row ran in real time (``Timing/real``, or a call the clock could not see).
            public let virtualElapsed: Duration?
            /// How it ended, for tests that look closer than the verdict.
            let outcome: CallOutcome?

            init(
                case: Case, got: String, passed: Bool?, sleeps: [TimeInterval], elapsed: Duration, virtualElapsed: Duration? = nil,
                outcome: CallOutcome?
            ) {
                self.case = `case`
                self.got = got
                self.passed = passed
                self.sleeps = sleeps
                self.elapsed = elapsed
                self.virtualElapsed = virtualElapsed
                self.outcome = outcome
            }

            /// The verdict as the table shows it: `pass`, `FAIL`, `skipped: REASON`, `pass (REASON)`.
            public var verdict: String {
                guard let passed else { return "skipped: \(self.case.reason ?? "")" }
                let word = passed ? "pass" : "FAIL"
                return self.case.reason.map { "\(word) (\($0))" } ?? word
            }

            /// The failure sentence, `nil` when the row passed or was skipped:
            /// `status=503: expected .service(.httpStatus(503)), got success: "someone" (baseline: "The Octocat") after 0 retries`.
            public var failure: String? {
                passed == false ? "\(self.case.fault): expected \(self.case.expectation), got \(got)" : nil
            }

            /// `0.999 s virtual, 0.01 s real` (the clock's time to the millisecond, which tells an answer just
            /// before a 1 s timeout from the timeout), or `1.02 s real-time`; empty for a skipped row.
            public var time: String {
                guard passed != nil else { return "" }
                guard let virtualElapsed else { return "\(CallOutcome.seconds(elapsed)) real-time" }
                return "\(CallOutcome.seconds(virtualElapsed, places: 3)) virtual, \(CallOutcome.seconds(elapsed)) real"
            }

            /// `fault | expected | got | verdict` (the table adds ``time``).
            public var description: String { [self.case.fault, "\(self.case.expectation)", got, verdict].joined(separator: " | ") }
        }

        /// What ran: the service's type or the call's name, and the cassette.
        public let subject: String
        /// The rows, in the matrix's order.
        public let rows: [Row]
        /// How long the whole matrix took, runs in parallel.
        public let elapsed: Duration
        /// Why no row ran, when none did: the record mode sends every request to the upstream
        /// (`MOCKSERVER_LIVE=1`, `MOCKSERVER_RECORD=drift`), where faults do not apply. `nil` otherwise.
        public let notice: String?

        init(subject: String, rows: [Row], elapsed: Duration, notice: String? = nil) {
            self.subject = subject
            self.rows = rows
            self.elapsed = elapsed
            self.notice = notice
        }

        /// One sentence per row whose outcome did not meet its expectation; empty when every row passed.
        public var failures: [String] { rows.compactMap(\.failure) }

        /// The table: fault, expected, got, verdict, columns padded, headed by the subject and the time.
        public var description: String {
            let header = ["fault", "expected", "got", "verdict", "time"]
            let body = rows.map { [$0.case.fault, "\($0.case.expectation)", $0.got, $0.verdict, $0.time] }
            let widths = header.indices.map { column in ([header] + body).map { $0[column].count }.max() ?? 0 }
            func line(_ cells: [String]) -> String {
                var text = cells.indices.map { cells[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
                    .joined(separator: " | ")
                while text.last == " " { text.removeLast() }
                return text
            }
            let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "-+-")
            if let notice { return "\(subject): \(notice)" }
            let summary = "\(subject): \(rows.count) faults, \(failures.count) failed, in \(CallOutcome.seconds(elapsed))"
            return ([summary, line(header), rule] + body.map(line)).joined(separator: "\n")
        }
    }
}

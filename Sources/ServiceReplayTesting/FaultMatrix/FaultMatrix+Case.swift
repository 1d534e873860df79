import Foundation
import MockServer
import ServiceKit
import ServiceReplayShared
import Testing

extension FaultMatrix {
    /// One row of a matrix: a fault in the CLI spelling of ``MockServer/FaultRule`` (`status=503`,
    /// `reset,when=first:1`) and what the call must end in under it. Pass a list from
    /// ``cases(for:method:replaying:in:eventsBeforeFault:client:overrides:filePath:)`` to `@Test(arguments:)` so that each fault is its
    /// own test case, then run one with `run(..., only:)`.
    public struct Case: Sendable, Hashable, CustomStringConvertible, CustomTestStringConvertible {
        /// The fault spec the row's server runs under.
        public let fault: String
        /// What the call must end in.
        public let expectation: Expectation
        /// Why the expectation differs from the default, or why the row is skipped; `nil` for a default row.
        public let reason: String?
        /// Whether the row is skipped (``reason`` says why).
        public let isSkipped: Bool
        /// The family of the default expectation, which family overrides select by; `nil` for rows that
        /// expect the baseline value.
        let family: WebServiceError.Family?

        init(
            _ fault: String, _ expectation: Expectation, family: WebServiceError.Family?,
            reason: String? = nil, isSkipped: Bool = false
        ) {
            self.fault = fault
            self.expectation = expectation
            self.family = family
            self.reason = reason
            self.isSkipped = isSkipped
        }

        /// `status=503 → .service(.httpStatus(503))`.
        public var description: String { "\(fault) → \(expectation)" }
        /// The fault spec, as the test navigator shows the case.
        public var testDescription: String { fault }

        /// Cases are equal when their faults are: a matrix has one row per fault.
        public static func == (lhs: Case, rhs: Case) -> Bool { lhs.fault == rhs.fault }
        /// Hashes the fault, as ``==(_:_:)`` compares it.
        public func hash(into hasher: inout Hasher) { hasher.combine(fault) }
    }

    /// What a matrix needs to know of the call to choose its rows.
    struct Shape: Sendable {
        /// For a stream, how many events arrive before a stream fault; `nil` for a plain call.
        var eventsBeforeFault: Int?
        /// Whether a retry policy may repeat the call (its method is idempotent).
        var idempotent: Bool
        /// The client's timeout in seconds.
        var timeout: TimeInterval
        /// Attempts the client's retry policy allows (1 without one).
        var attempts: Int
        /// The cassette's error templates, by name.
        var templates: [String]
        /// Whether the call is a ``ServiceKit/GraphQLService``, which gets a `graphql-error` row.
        var graphQL = false
    }

    /// The default rows for `shape`, in the order of the table in the article "The fault matrix", overrides applied.
    /// - Throws: ``FaultMatrixError`` when an override names a fault the matrix lacks and its spec does not parse.
    static func cases(for shape: Shape, overrides: [Override]) throws -> [Case] {
        var rows: [Case] = []
        func network(_ fault: String) { rows.append(Case(fault, .networkError, family: .network)) }
        for fault in ["refuse", "reset", "empty", "truncate=status-line"] { network(fault) }
        if !URLSessionQuirks.trapsOnTruncatedHeaders { network("truncate=headers") }
        for fault in ["truncate=body:10", "malformed-chunk", "garbage"] { network(fault) }
        rows.append(Case("stall", .timedOut, family: .network))
        // Beyond the timeout by half a second, or by half the timeout when that is longer.
        let late = Int(((shape.timeout + max(0.5, shape.timeout / 2)) * 1000).rounded())
        rows.append(Case("latency=\(late)ms", .timedOut, family: .network))
        for fault in ["latency=150ms", "latency=50..250ms", "throttle=64KB/s"] {
            rows.append(Case(fault, .baselineValue, family: nil))
        }
        for code in [500, 502, 503, 504] {
            rows.append(Case("status=\(code)", .httpStatus(code), family: .service))
        }
        rows.append(Case("status=429", .rateLimited, family: .service))
        // A stream's damaged body may also read as a stream broken off (no end of stream): either family.
        let damagedBody: Expectation = shape.eventsBeforeFault == nil ? .unusableBody : .anyError
        for fault in ["corrupt-body", "empty-body"] {
            rows.append(Case(fault, damagedBody, family: .service))
        }
        rows.append(Case("content-type=text/html", .unusableBody, family: .service))
        for template in shape.templates.sorted() {
            rows.append(Case("service-error=\(template)", .recognisedServiceError, family: .service))
        }
        // A GraphQL API reports its errors in a 200: the service must read them as its own, not as data.
        if shape.graphQL { rows.append(Case("graphql-error", .serviceError, family: .service)) }
        if let events = shape.eventsBeforeFault {
            rows.append(Case("truncate=event:\(events)", Expectation.networkError.after(events: events), family: .network))
            rows.append(Case("stall=event:\(events)", Expectation.timedOut.after(events: events), family: .network))
            for template in shape.templates.sorted() {
                rows.append(Case("error-event=\(template),after=\(events)", Expectation.serviceError.after(events: events), family: .service))
            }
        } else if shape.attempts > 1 && shape.idempotent {
            // A retryable answer that goes wrong once is overcome by the retry.
            for fault in ["reset", "empty", "truncate=body:10", "status=503", "status=429"] {
                rows.append(Case("\(fault),when=first:1", .baselineValue, family: nil))
            }
        }
        return try apply(overrides, to: rows)
    }

    /// `rows` with each override applied: a fault the matrix has gets the override's expectation (or is
    /// skipped); a fault it lacks is added as a row of its own; a family override changes every row of that
    /// family that no fault override changes.
    private static func apply(_ overrides: [Override], to rows: [Case]) throws -> [Case] {
        var rows = rows
        for override in overrides {
            switch override.target {
            case .family(let family):
                for index in rows.indices where rows[index].family == family && rows[index].reason == nil {
                    rows[index] = override.applied(to: rows[index])
                }
            case .fault:
                break
            }
        }
        for override in overrides {
            guard case .fault(let fault) = override.target else { continue }
            if let index = rows.firstIndex(where: { $0.fault == fault }) {
                rows[index] = override.applied(to: rows[index])
            } else {
                do {
                    _ = try FaultPlan.parse(specs: fault)
                } catch {
                    throw FaultMatrixError("the override for '\(fault)' names no fault of the matrix and is not a fault spec: \(error)")
                }
                rows.append(override.applied(to: Case(fault, .baselineValue, family: nil)))
            }
        }
        return rows
    }
}

/// A fault matrix that cannot run as asked, in one sentence: an override that names no fault, a baseline
/// that fails, a cassette that is missing.
public struct FaultMatrixError: Error, CustomStringConvertible, Sendable {
    /// The sentence.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}

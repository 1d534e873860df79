import ServiceKit

extension FaultMatrix {
    /// A change to the matrix's default rows, with the reason the report prints beside the row.
    ///
    /// ```swift
    /// overrides: [.expect("status=404", .error(.service(.httpStatus(404, message: "Not Found"))), because: "..."),
    ///             .skip("stall", because: "the call has its own 1 s deadline"),
    ///             .expect(family: .network, .fallback(Profile.cached), because: "offline shows the cache")]
    /// ```
    public struct Override: Sendable {
        enum Target: Sendable {
            case fault(String)
            case family(WebServiceError.Family)
        }

        let target: Target
        let expectation: Expectation?
        let reason: String

        /// Expects `expectation` under `fault` (a spec such as `status=503` or `reset,when=first:1`). A fault the
        /// matrix does not run by default is added as a row of its own.
        public static func expect(_ fault: String, _ expectation: Expectation, because reason: String) -> Override {
            Override(target: .fault(fault), expectation: expectation, reason: reason)
        }

        /// Expects `expectation` under every fault whose default expectation is an error of `family`, unless an
        /// override for that very fault says otherwise: how an async call declares its fallback
        /// (`.expect(family: .network, .fallback(cached), because: "offline shows the cache")`).
        public static func expect(family: WebServiceError.Family, _ expectation: Expectation, because reason: String) -> Override {
            Override(target: .family(family), expectation: expectation, reason: reason)
        }

        /// Leaves `fault` out of the run; the report still lists it, with `reason`.
        public static func skip(_ fault: String, because reason: String) -> Override {
            Override(target: .fault(fault), expectation: nil, reason: reason)
        }

        func applied(to row: Case) -> Case {
            guard let expectation else {
                return Case(row.fault, row.expectation, family: row.family, reason: reason, isSkipped: true)
            }
            // A stream row keeps its count of events before the fault.
            var changed = expectation
            if changed.eventsBefore == nil { changed.eventsBefore = row.expectation.eventsBefore }
            return Case(row.fault, changed, family: row.family, reason: reason)
        }
    }
}

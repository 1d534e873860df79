import ServiceKit

extension FaultMatrix {
    /// What a call must end in under one fault: a value, or an error of a given family or case. Built through
    /// the static factories; ``description`` is how the report spells it (`.service(.httpStatus(503))`).
    public struct Expectation: Sendable, CustomStringConvertible {
        enum Rule: Sendable {
            /// The value the call gave without faults.
            case baselineValue
            /// A value the test declares (an async call's fallback), compared by `matches`.
            case fallback(String, matches: @Sendable (any Sendable) -> Bool)
            /// Any error of the family.
            case family(WebServiceError.Family)
            /// Exactly one of these reasons (messages included).
            case oneOf([WebServiceError.Reason])
            /// An HTTP status error with this code, whatever its message.
            case httpStatus(Int)
            /// A rate limit, whatever its delay.
            case rateLimited
            /// A service-level error the service recognised: a status, a rate limit or an error payload (not
            /// an unreadable body).
            case recognisedServiceError
            /// The body could not be used: undecodable, or of the wrong content type.
            case unusableBody
            /// Any error of either family (a stream whose body is damaged may end either way).
            case anyError
        }

        let rule: Rule
        /// For streams: how many events must arrive before the error; `nil` when not counted.
        var eventsBefore: Int?

        init(_ rule: Rule, eventsBefore: Int? = nil) {
            self.rule = rule
            self.eventsBefore = eventsBefore
        }

        /// The same value as the call gave without faults (a fault that slows the answer, or one a retry
        /// overcomes).
        public static let baselineValue = Expectation(.baselineValue)
        /// Any network-level error.
        public static let networkError = Expectation(.family(.network))
        /// Any service-level error.
        public static let serviceError = Expectation(.family(.service))
        /// Exactly `reason`, messages and delays included.
        public static func error(_ reason: WebServiceError.Reason) -> Expectation { Expectation(.oneOf([reason])) }
        /// Exactly one of `reasons`, for outcomes that depend on timing or platform and are all documented.
        public static func oneOf(_ reasons: [WebServiceError.Reason]) -> Expectation { Expectation(.oneOf(reasons)) }
        /// An async call's declared fallback: the call returns `value` instead of throwing.
        public static func fallback<Value: Equatable & Sendable>(_ value: Value) -> Expectation {
            Expectation(.fallback(String(describing: value), matches: { ($0 as? Value) == value }))
        }
        static func httpStatus(_ code: Int) -> Expectation { Expectation(.httpStatus(code)) }
        static let rateLimited = Expectation(.rateLimited)
        static let timedOut = Expectation(.oneOf([.network(.timedOut)]))
        static let recognisedServiceError = Expectation(.recognisedServiceError)
        static let unusableBody = Expectation(.unusableBody)
        static let anyError = Expectation(.anyError)

        /// The same expectation, reached only after exactly `events` stream events.
        func after(events: Int) -> Expectation { Expectation(rule, eventsBefore: events) }

        /// Whether the call's outcome meets this expectation.
        func isMet(by outcome: CallOutcome) -> Bool {
            if let eventsBefore, outcome.events != eventsBefore { return false }
            switch (rule, outcome.result) {
            case (.baselineValue, .value): return outcome.equalsBaseline
            case (.fallback(_, let matches), .value(let value)): return matches(value)
            case (.family(let family), .error(let error)): return error.family == family
            case (.oneOf(let reasons), .error(let error)): return reasons.contains(error.reason)
            case (.httpStatus(let code), .error(let error)):
                if case .service(.httpStatus(code, _)) = error.reason { return true }
                return false
            case (.rateLimited, .error(let error)):
                if case .service(.rateLimited) = error.reason { return true }
                return false
            case (.recognisedServiceError, .error(let error)):
                switch error.reason {
                case .service(.httpStatus), .service(.rateLimited), .service(.errorPayload): return true
                // A template answering 304 or 412 read as `.httpStatus` before these statuses had cases of their own.
                case .service(.notModified), .service(.preconditionFailed): return true
                // A GraphQL API's error template (or a graphql-error fault) is its error payload.
                case .service(.graphQL): return true
                default: return false
                }
            case (.unusableBody, .error(let error)):
                switch error.reason {
                case .service(.undecodableBody), .service(.wrongContentType): return true
                default: return false
                }
            case (.anyError, .error):
                return true
            default:
                return false
            }
        }

        /// `.service(.httpStatus(503))`, `.network(...)`, `the baseline value`, `... after 2 events`.
        public var description: String {
            let text =
                switch rule {
                case .baselineValue: "the baseline value"
                case .fallback(let value, _): "the fallback \(value)"
                case .family(.network): ".network(...)"
                case .family(.service): ".service(...)"
                case .oneOf(let reasons): reasons.map(\.matrixSpelling).joined(separator: " or ")
                case .httpStatus(let code): ".service(.httpStatus(\(code)))"
                case .rateLimited: ".service(.rateLimited)"
                case .recognisedServiceError: ".service(.httpStatus, .rateLimited or .errorPayload)"
                case .unusableBody: ".service(.undecodableBody) or .service(.wrongContentType)"
                case .anyError: ".network(...) or .service(...)"
                }
            guard let eventsBefore else { return text }
            return text + " after \(eventsBefore) event" + (eventsBefore == 1 ? "" : "s")
        }
    }
}

extension WebServiceError.Reason {
    /// The reason as the report spells it: `.network(.timedOut)`, `.service(.httpStatus(503))`,
    /// `.service(.rateLimited(60))`, `.service(.errorPayload(maintenance))`. Messages are left out.
    var matrixSpelling: String {
        switch self {
        case .network(let failure):
            return ".network(.\(failure))"
        case .service(let failure):
            let inner =
                switch failure {
                case .httpStatus(let status, _): "httpStatus(\(status))"
                case .rateLimited(let delay?): "rateLimited(\(delay == delay.rounded() && abs(delay) < 1e15 ? String(Int(delay)) : String(delay)))"
                case .rateLimited(nil): "rateLimited"
                case .errorPayload(let code, _): "errorPayload(\(code ?? "-"))"
                case .undecodableBody: "undecodableBody"
                case .wrongContentType(let type): "wrongContentType(\(type))"
                case .missingField(let path): "missingField(\(path))"
                case .invalidField(let path): "invalidField(\(path))"
                case .invalidRequest: "invalidRequest"
                case .notModified: "notModified"
                case .preconditionFailed: "preconditionFailed"
                case .graphQL(let failure): "graphQL(\(failure.errors.map { $0.code ?? "-" }.joined(separator: ",")))"
                }
            return ".service(.\(inner))"
        }
    }
}

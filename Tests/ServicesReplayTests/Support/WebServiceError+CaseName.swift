import ServiceKit

extension WebServiceError.Reason {
    /// The family and case in a few words, for test names and tables: `network.timedOut`,
    /// `service.httpStatus(503)`, `service.rateLimited(60)`, `service.errorPayload(maintenance)`.
    /// Messages are left out; they are compared in full where they matter.
    var caseName: String {
        switch self {
        case .network(let failure):
            return "network.\(failure)"
        case .service(let failure):
            switch failure {
            case .httpStatus(let status, _): return "service.httpStatus(\(status))"
            case .rateLimited(let delay?): return "service.rateLimited(\(Self.seconds(delay)))"
            case .rateLimited(nil): return "service.rateLimited"
            case .errorPayload(let code, _): return "service.errorPayload(\(code ?? "-"))"
            case .undecodableBody: return "service.undecodableBody"
            case .wrongContentType(let type): return "service.wrongContentType(\(type))"
            case .missingField(let path): return "service.missingField(\(path))"
            case .invalidField(let path): return "service.invalidField(\(path))"
            case .invalidRequest: return "service.invalidRequest"
            case .notModified: return "service.notModified"
            case .preconditionFailed: return "service.preconditionFailed"
            case .graphQL(let failure): return "service.graphQL(\(failure.errors.map { $0.code ?? "-" }.joined(separator: ",")))"
            }
        }
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

import Foundation

// The sentences a person reads. Each says what happened and what to do; the table-driven test in
// WebServiceErrorMessageTests pins every one word for word.

extension WebServiceError.Reason {
    /// The user-facing sentence for this reason.
    var message: String {
        switch self {
        case .network(let failure): failure.message
        case .service(let failure): failure.message
        }
    }
}

extension WebServiceError.Network {
    var message: String {
        switch self {
        case .notConnected:
            "You are not connected to the internet. Check your connection and try again."
        case .cannotFindHost:
            "The server could not be found. Check your connection and try again."
        case .cannotConnect:
            "Could not connect to the server. Try again later."
        case .timedOut:
            "The server did not respond in time. Try again later."
        case .connectionLost:
            "The connection was lost before the request finished. Try again."
        case .badResponse:
            "The server's response was incomplete or malformed. Try again later."
        case .secureConnectionFailed:
            "A secure connection to the server could not be established. Check the device's date and network, then try again."
        case .cancelled:
            "The request was cancelled."
        }
    }
}

extension WebServiceError.Service {
    private static let updateHint = "Try again later, or update the app if this keeps happening."

    var message: String {
        switch self {
        case .httpStatus(let status, let message?):
            "The server could not complete the request (HTTP \(status)): \(Self.sentence(message))"
        case .httpStatus(let status, nil) where status >= 500:
            "The server had a problem (HTTP \(status)). Try again later."
        case .httpStatus(let status, nil):
            "The server could not complete the request (HTTP \(status))."
        case .rateLimited(let seconds?):
            "Too many requests were sent to the server. Try again in \(Self.phrase(forSeconds: seconds))."
        case .rateLimited(nil):
            "Too many requests were sent to the server. Wait a moment and try again."
        case .errorPayload(_, let message?):
            "The service reported an error: \(Self.sentence(message))"
        case .errorPayload(let code?, nil):
            "The service reported an error (\(code))."
        case .errorPayload(nil, nil):
            "The service reported an error."
        case .undecodableBody:
            "The server's response could not be read. \(Self.updateHint)"
        case .wrongContentType(let contentType):
            "The server answered with \(contentType) instead of JSON. \(Self.updateHint)"
        case .missingField(let keyPath):
            "The server's response is missing the field \(keyPath). \(Self.updateHint)"
        case .invalidField(let keyPath):
            "The server's response has an unexpected value in the field \(keyPath). \(Self.updateHint)"
        case .invalidRequest(let problem):
            "The app could not prepare this request: \(Self.sentence(problem)) Update the app if this keeps happening."
        case .notModified:
            "The server has nothing newer than the copy already loaded."
        case .preconditionFailed:
            "The item on the server is no longer the version this change was based on. Reload it, then try again."
        case .graphQL(let failure) where failure.message.isEmpty:
            "The service reported an error."
        case .graphQL(let failure):
            "The service reported an error: \(Self.sentence(failure.message))"
        }
    }

    /// The server's text, ending in terminal punctuation so the composed message reads as a sentence.
    private static func sentence(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let last = trimmed.last else { return "(no details)." }
        return ".!?".contains(last) ? trimmed : trimmed + "."
    }

    /// "1 second", "45 seconds", "3 minutes", "23 hours": rounded up, so the wait is never understated.
    static func phrase(forSeconds seconds: TimeInterval) -> String {
        let whole = max(1, Int(seconds.rounded(.up)))
        if whole < 120 {
            return whole == 1 ? "1 second" : "\(whole) seconds"
        }
        if whole < 7200 {
            return "\((whole + 59) / 60) minutes"
        }
        return "\((whole + 3599) / 3600) hours"
    }
}

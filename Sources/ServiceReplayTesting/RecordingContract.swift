import Foundation
import MockServer
import ServiceKit

/// One recorded answer that a service's own types do not read as the recording means it: the place (cassette,
/// interaction index and request, or error template), the service, and what went wrong, with the key path
/// ``ServiceKit/WebServiceError`` names (`.missingField("$.user.login")`).
public struct ContractViolation: Sendable, Hashable, CustomStringConvertible {
    /// Where the recorded answer is: an interaction, or an error template of the cassette.
    public enum Place: Sendable, Hashable {
        /// The interaction at this index, with its request's method and target.
        case interaction(index: Int, method: String, target: String)
        /// The error template of this name (`errorTemplates` in the file).
        case template(String)
    }

    /// The cassette's name.
    public let cassette: String
    /// Where in the cassette.
    public let place: Place
    /// The service's type name, such as `GitHubUserService`.
    public let service: String
    /// The service-level error the service's types reported, when they reported one: for a recorded success,
    /// why it does not map (`.missingField("$.user.login")`); for a recorded error, the error it was read as.
    public let error: WebServiceError.Service?
    /// What is wrong, as the end of a sentence: `cannot read the response: the field user.login is missing`.
    public let problem: String

    /// `CASSETTE interaction INDEX (METHOD TARGET): SERVICE PROBLEM`, or `CASSETTE template NAME: SERVICE PROBLEM`.
    public var description: String {
        switch place {
        case .interaction(let index, let method, let target): "\(cassette) interaction \(index) (\(method) \(target)): \(service) \(problem)"
        case .template(let name): "\(cassette) template \(name): \(service) \(problem)"
        }
    }
}

/// Checks every recorded answer to `service`'s request in `cassette` through the service's own response
/// handling (its error detection, then its mapping, exactly as ``ServiceKit/WebServiceClient`` reads a response), and
/// returns each one that does not read as recorded, in interaction order, then the templates by name:
/// - a recorded 2xx must map to the service's `Response`, unless its body is an error payload (as
///   ``ServiceKit/RawResponse/errorPayload`` finds one, such as `{"error": "maintenance", "message": ...}`) or
///   a GraphQL answer with errors (`{"errors": [...]}`, read by a ``ServiceKit/GraphQLService`` as
///   ``ServiceKit/WebServiceError/Service/graphQL(_:)``);
/// - a recorded error (non-2xx, or a 2xx carrying an error payload), and each of the cassette's error
///   templates when the service answers at least one interaction, must be read as a service-level error that
///   carries what the API said: the server's message for an HTTP error, the delay for a rate limit, a code or
///   message for an error payload.
///
/// An interaction answers the service when `matches` says so; by default, when its method is the service's and
/// its path (without the query) is the service's `endpoint` (also without a leading base path: cassettes keep
/// targets as the client sent them relative to the base URL). Streamed answers and recorded transport failures
/// have no body to map and are left out. Empty when the service reads all of it.
///
/// ```swift
/// @Test func recordingsMatchTheModels() throws {
///     let cassette = try Cassette.load(from: URL(fileURLWithPath: "Recordings/github/users.json"))
///     #expect(contractViolations(of: GitHubUserService(login: "octocat"), in: cassette) == [])
/// }
/// ```
public func contractViolations<Service: WebService>(
    of service: Service, in cassette: Cassette, matching matches: ((RecordedRequest) -> Bool)? = nil
) -> [ContractViolation] {
    let name = String(describing: Service.self)
    let endpoint = "/" + String(service.endpoint.prefix { $0 != "?" }.drop { $0 == "/" })
    let answers =
        matches ?? { request in
            request.method.uppercased() == service.method.rawValue.uppercased() && String(request.target.prefix { $0 != "?" }) == endpoint
        }
    var violations: [ContractViolation] = []
    var answered = false
    for (index, interaction) in cassette.interactions.enumerated() where answers(interaction.request) {
        answered = true
        guard let response = interaction.response else { continue }
        if case .stream = response.body.form { continue }
        let place = ContractViolation.Place.interaction(index: index, method: interaction.request.method, target: interaction.request.target)
        if let (error, problem) = RecordingContract.problem(service, response, isTemplate: false) {
            violations.append(ContractViolation(cassette: cassette.name, place: place, service: name, error: error, problem: problem))
        }
    }
    guard answered else { return violations }
    for template in cassette.errorTemplates.keys.sorted() {
        guard let response = cassette.errorTemplates[template],
            let (error, problem) = RecordingContract.problem(service, response, isTemplate: true)
        else { continue }
        violations.append(ContractViolation(cassette: cassette.name, place: .template(template), service: name, error: error, problem: problem))
    }
    return violations
}

/// How one recorded answer reads through a service.
enum RecordingContract {
    /// What is wrong with `response` read by `service`, or `nil` when it reads as recorded: a success as the
    /// service's response, an error (or a template, always an error) as a service-level error carrying what
    /// the API said.
    static func problem<Service: WebService>(_ service: Service, _ response: RecordedResponse, isTemplate: Bool) -> (WebServiceError.Service?, String)? {
        let fields = response.headers.map { ResponseHeaders.Field(name: $0.name, value: $0.value) }
        let reply = RawResponse(statusCode: response.status, headers: ResponseHeaders(fields), body: response.body.data)
        let failure: WebServiceError.Service?
        switch service.interpret(reply) {
        case .success: failure = nil
        case .failure(let error):
            guard case .service(let serviceFailure) = error.reason else { return (nil, "cannot read the response: \(error)") }
            failure = serviceFailure
        }
        // An error payload (or a GraphQL errors array) sent with 2xx is a recorded error too: a service reading
        // it as a value swallows it.
        let success = !isTemplate && reply.isSuccess && reply.errorPayload == nil && !reply.hasGraphQLErrors
        switch (success, failure) {
        case (true, nil):
            return nil
        case (true, let error?):
            return (
                error,
                isUnreadable(error)
                    ? "cannot read the response: \(sentence(for: error))"
                    : "reads a recorded success as an error: \(sentence(for: error))"
            )
        case (false, nil):
            return (nil, "reads a recorded error as a success")
        case (false, let error?) where isUnreadable(error):
            return (error, "cannot read the error: \(sentence(for: error))")
        case (false, .httpStatus(_, message: nil)?):
            return (failure, "cannot read the error: the body has no message it recognises")
        case (false, .rateLimited(retryAfter: nil)?):
            return (failure, "cannot read the error: the rate limit carries no delay it recognises")
        case (false, .errorPayload(code: nil, message: nil)?):
            return (failure, "cannot read the error: the payload has no code or message it recognises")
        case (false, _):
            return nil
        }
    }

    /// Whether `error` says the body could not be read, rather than what the API said.
    private static func isUnreadable(_ error: WebServiceError.Service) -> Bool {
        switch error {
        case .missingField, .invalidField, .undecodableBody, .wrongContentType: true
        case .httpStatus, .rateLimited, .errorPayload, .invalidRequest, .notModified, .preconditionFailed, .graphQL: false
        }
    }

    /// What `error` says, as the end of a sentence.
    private static func sentence(for error: WebServiceError.Service) -> String {
        switch error {
        case .missingField(let path): "the field \(path) is missing"
        case .invalidField(let path): "the field \(path) has an unexpected value"
        case .undecodableBody: "the body is not the JSON it expects"
        case .wrongContentType(let type): "the body is \(type), not JSON"
        case .httpStatus(let status, _): "HTTP status \(status)"
        case .rateLimited: "a rate limit"
        case .errorPayload(let code, let message): "an error payload (\([code, message].compactMap { $0 }.joined(separator: ": ")))"
        case .invalidRequest(let problem): "a request it cannot send (\(problem))"
        case .notModified: "not modified (HTTP 304)"
        case .preconditionFailed: "a failed precondition (HTTP 412)"
        case .graphQL(let failure): "GraphQL errors (\(failure.errors.map(\.message).joined(separator: "; ")))"
        }
    }
}

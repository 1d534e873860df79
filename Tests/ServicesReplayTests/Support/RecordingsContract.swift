import Foundation
@testable import MockServer
import ServiceKit
import ExampleServices

/// The contract between `Recordings/` and ServiceKit: every recorded request is one a service sends, and
/// that service's types read every recorded answer to it, errors included.
///
/// - A recorded 2xx must map to the service's response type.
/// - A recorded error (non-2xx) and every error template must be recognised as a service-level error that
///   carries what the API said: the server's message for an HTTP error, the delay for a rate limit, a code
///   or message for an error payload.
///
/// Each problem is one sentence naming the cassette, the interaction (or template) and the field.
enum RecordingsContract {
    /// A service that sends requests matching `method` and `path`, and reads their answers.
    struct Route: Sendable {
        let service: String
        let method: String
        let path: PathGlob
        let read: @Sendable (RawResponse) -> Verdict
    }

    /// What a service made of one recorded answer.
    enum Verdict: Sendable {
        /// Mapped to the response type.
        case value
        /// Recognised as this service-level error.
        case serviceError(WebServiceError.Service)
        /// Not readable: the mapping threw this.
        case unreadable(WebServiceError.Service)
    }

    /// The services of the six APIs, by the requests they send (paths relative to each API's base URL).
    static let routes: [Route] = [
        route("LoginService", "POST", "/login", LoginService(username: "", password: "")),
        route("StackExchangeQuestionsService", "GET", "/2.3/questions", StackExchangeQuestionsService(site: "stackoverflow")),
        route("GitHubUsersService", "GET", "/users", GitHubUsersService()),
        route("GitHubUserService", "GET", "/users/*", GitHubUserService(login: "")),
        route("FriendsService", "GET", "/friends", FriendsService(userID: "")),
        route("FeedService", "GET", "/feeds", FeedService()),
        route("PhotoUploadService", "POST", "/photos", PhotoUploadService(caption: "", jpegData: Data())),
    ]

    /// Every problem in `cassette`, in interaction order, then templates by name. Empty when the services'
    /// types read all of it.
    static func problems(in cassette: Cassette) -> [String] {
        var problems: [String] = []
        var servicesOfCassette: [Route] = []
        for (index, interaction) in cassette.interactions.enumerated() {
            let request = interaction.request
            // A streamed answer belongs to a streaming service, whose replay tests read every event it holds.
            if case .stream? = interaction.response?.body.form { continue }
            let place = "\(cassette.name) interaction \(index) (\(request.method) \(request.target))"
            guard let route = route(for: request) else {
                problems.append("\(place): no service sends \(request.method) \(request.path)")
                continue
            }
            if !servicesOfCassette.contains(where: { $0.service == route.service }) {
                servicesOfCassette.append(route)
            }
            guard let response = interaction.response else { continue }  // a recorded transport failure has no body
            let problem = (200..<300).contains(response.status) ? successProblem(route, response) : errorProblem(route, response)
            problems += problem.map { ["\(place): \(route.service) \($0)"] } ?? []
        }
        for name in cassette.errorTemplates.keys.sorted() {
            guard let template = cassette.errorTemplates[name] else { continue }
            for route in servicesOfCassette {
                if let problem = errorProblem(route, template) {
                    problems.append("\(cassette.name) template \(name): \(route.service) \(problem)")
                }
            }
        }
        return problems
    }

    /// The services `cassette`'s interactions are sent by.
    static func services(of cassette: Cassette) -> Set<String> {
        Set(cassette.interactions.compactMap { route(for: $0.request)?.service })
    }

    /// The route of the service that sends `request`, by method and path (the query left out).
    static func route(for request: RecordedRequest) -> Route? {
        routes.first { $0.method == request.method.uppercased() && $0.path.matches(request.path) }
    }

    private static func successProblem(_ route: Route, _ response: RecordedResponse) -> String? {
        switch route.read(rawResponse(response)) {
        case .value: nil
        case .serviceError(let error): "reads a recorded success as an error: \(WebServiceError.Reason.service(error).caseName)"
        case .unreadable(let error): "cannot read the response: \(sentence(for: error))"
        }
    }

    private static func errorProblem(_ route: Route, _ response: RecordedResponse) -> String? {
        switch route.read(rawResponse(response)) {
        case .value:
            "reads a recorded error as a success"
        case .unreadable(let error):
            "cannot read the error: \(sentence(for: error))"
        case .serviceError(.httpStatus(_, message: nil)):
            "cannot read the error: the body has no message it recognises"
        case .serviceError(.rateLimited(retryAfter: nil)):
            "cannot read the error: the rate limit carries no delay it recognises"
        case .serviceError(.errorPayload(code: nil, message: nil)):
            "cannot read the error: the payload has no code or message it recognises"
        case .serviceError:
            nil
        }
    }

    /// What is wrong, as the end of a sentence.
    private static func sentence(for error: WebServiceError.Service) -> String {
        switch error {
        case .missingField(let path): "the field \(path) is missing"
        case .invalidField(let path): "the field \(path) has an unexpected value"
        case .undecodableBody: "the body is not the JSON it expects"
        case .wrongContentType(let type): "the body is \(type), not JSON"
        default: WebServiceError.Reason.service(error).caseName
        }
    }

    /// The response as replay sends it and as the client's hooks see it.
    private static func rawResponse(_ recorded: RecordedResponse) -> RawResponse {
        let http = recorded.replayResponse
        let headers = ResponseHeaders(http.headers.map { ResponseHeaders.Field(name: $0.name, value: $0.value) })
        return RawResponse(statusCode: http.status, headers: headers, body: http.body)
    }

    /// A route for `service`: its error detection first, then its mapping, as the client does.
    private static func route<Service: WebService>(_ name: String, _ method: String, _ path: String, _ service: Service) -> Route {
        Route(service: name, method: method, path: PathGlob(path)) { reply in
            if let error = service.serviceError(in: reply) {
                return .serviceError(error)
            }
            guard reply.isSuccess else { return .serviceError(.httpStatus(reply.statusCode, message: reply.serverMessage)) }
            do {
                _ = try service.decodeResponse(reply)
                return .value
            } catch let error as WebServiceError {
                if case .service(let failure) = error.reason { return .unreadable(failure) }
                return .unreadable(.undecodableBody)
            } catch {
                return .unreadable(.undecodableBody)
            }
        }
    }
}

extension RecordedRequest {
    /// The target without its query.
    var path: String { String(target.prefix { $0 != "?" }) }
}

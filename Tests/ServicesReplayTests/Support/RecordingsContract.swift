import Foundation
@testable import MockServer
import ServiceKit
import ExampleServices
import ServiceReplayTesting

/// The contract between `Recordings/` and ServiceKit: every recorded request is one a service sends, and
/// that service's types read every recorded answer to it, errors included, as the product's
/// ``contractViolations(of:in:matching:)`` checks them.
///
/// Each problem is one sentence naming the cassette, the interaction (or template) and the field.
enum RecordingsContract {
    /// A service that sends requests matching `method` and `path` (and, for a GraphQL service, `operation`), and
    /// the contract check for it.
    struct Route: Sendable {
        let service: String
        let method: String
        let path: PathGlob
        var operation: String? = nil
        let check: @Sendable (Cassette, _ matching: @escaping (RecordedRequest) -> Bool) -> [ContractViolation]
    }

    /// The services of the seven APIs (GitHub's GraphQL one by operation), by the requests they send (paths relative to each API's base URL).
    static let routes: [Route] = [
        route("LoginService", "POST", "/login", LoginService(username: "", password: "")),
        route("StackExchangeQuestionsService", "GET", "/2.3/questions", StackExchangeQuestionsService(site: "stackoverflow")),
        route("GitHubUsersService", "GET", "/users", GitHubUsersService()),
        route("GitHubUserService", "GET", "/users/*", GitHubUserService(login: "")),
        route("FriendsService", "GET", "/friends", FriendsService(userID: "")),
        route("FeedService", "GET", "/feeds", FeedService()),
        route("PhotoUploadService", "POST", "/photos", PhotoUploadService(caption: "", jpegData: Data())),
        route("GitHubViewerQuery", "POST", "/graphql", GitHubViewerQuery(), operation: "Viewer"),
        route("GitHubRepositoryQuery", "POST", "/graphql", GitHubRepositoryQuery(owner: "", name: ""), operation: "Repository"),
        route("GitHubAddStarMutation", "POST", "/graphql", GitHubAddStarMutation(starrableId: ""), operation: "AddStar"),
    ]

    /// Every problem in `cassette`, in interaction order, then templates by name for each service in the order
    /// the cassette first uses it. Empty when the services' types read all of it.
    static func problems(in cassette: Cassette) -> [String] {
        var interactions: [(index: Int, sentence: String)] = []
        var templates: [String] = []
        for (index, interaction) in cassette.interactions.enumerated() where route(for: interaction.request) == nil {
            // A streamed answer belongs to a streaming service, and a WebSocket conversation to a WebSocket service,
            // whose replay tests read every event or message it holds.
            if case .stream? = interaction.response?.body.form { continue }
            if interaction.webSocket != nil { continue }
            let request = interaction.request
            interactions.append(
                (index, "\(cassette.name) interaction \(index) (\(request.method) \(request.target)): no service sends \(request.method) \(request.path)"))
        }
        var used: [Route] = []
        for interaction in cassette.interactions {
            if let route = route(for: interaction.request), !used.contains(where: { $0.service == route.service }) { used.append(route) }
        }
        for route in used {
            for violation in route.check(cassette, { RecordingsContract.route(for: $0)?.service == route.service }) {
                switch violation.place {
                case .interaction(let index, _, _): interactions.append((index, violation.description))
                case .template: templates.append(violation.description)
                }
            }
        }
        return interactions.sorted { $0.index < $1.index }.map(\.sentence) + templates
    }

    /// The services `cassette`'s interactions are sent by.
    static func services(of cassette: Cassette) -> Set<String> {
        Set(cassette.interactions.compactMap { route(for: $0.request)?.service })
    }

    /// The route of the service that sends `request`, by method and path (the query left out), and by its
    /// GraphQL operation.
    static func route(for request: RecordedRequest) -> Route? {
        routes.first { route in
            route.method == request.method.uppercased() && route.path.matches(request.path)
                && route.operation.map { request.graphQLOperations.contains($0) } ?? true
        }
    }

    private static func route<Service: WebService>(
        _ name: String, _ method: String, _ path: String, _ service: Service, operation: String? = nil
    ) -> Route {
        Route(service: name, method: method, path: PathGlob(path), operation: operation) { cassette, matching in
            contractViolations(of: service, in: cassette, matching: matching)
        }
    }
}

extension RecordedRequest {
    /// The target without its query.
    var path: String { String(target.prefix { $0 != "?" }) }
}

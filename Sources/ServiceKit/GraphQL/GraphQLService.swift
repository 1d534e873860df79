import Foundation
import ServiceReplayShared
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One GraphQL operation as a service: its document, its variables and the `data` it reads, sent by the same
/// ``WebServiceClient`` as every ``WebService``, with the same two error families.
///
/// ```swift
/// struct UserQuery: GraphQLService {
///     struct Variables: Encodable, Sendable { let login: String }
///     struct Response: Decodable, Sendable { let user: User? }
///     let login: String
///     var document: String { "query User($login: String!) { user(login: $login) { login name } }" }
///     var variables: Variables { Variables(login: login) }
/// }
/// let user = try await client.send(UserQuery(login: "octocat")).user
/// ```
///
/// The request is a `POST` to ``WebService/endpoint`` (default `graphql`, relative to the client's base URL) with the JSON
/// body `{"query", "operationName", "variables"}`, encoded by the client's `JSONEncoder`. The answer's `data` is
/// decoded as ``WebService/Response``. An answer whose `errors` array is not empty is a service-level error,
/// ``WebServiceError/Service/graphQL(_:)``, whatever its status (but 429 and 503, which stay rate limiting and
/// a server error, so that retries apply): its messages, paths and `extensions.code` stay readable, next to
/// the partial `data` when the server sent some. A transport failure stays network-level.
public protocol GraphQLService: WebService where Response: Decodable {
    /// The variables' type; ``GraphQLNoVariables`` (the default) for an operation without any.
    associatedtype Variables: Encodable & Sendable = GraphQLNoVariables

    /// The operation's document, such as `query Viewer { viewer { login } }`; it may hold fragments.
    var document: String { get }

    /// The name of the operation to run; default the name of the first operation ``document`` defines (`nil`
    /// for an anonymous one, and then the key is left out of the request).
    var operationName: String? { get }

    /// The operation's variables, encoded as the request's `variables` object.
    var variables: Variables { get }

    /// The persisted query to send instead of (or beside) the document; default `nil`, the document alone.
    var persistedQuery: GraphQLPersistedQuery? { get }
}

/// The variables of an operation that takes none: encoded as `{}`.
public struct GraphQLNoVariables: Encodable, Sendable, Hashable {
    /// No variables.
    public init() {}
}

/// A query the server knows by its hash (Apollo's `extensions.persistedQuery`): the SHA-256 of the document, in
/// lower-case hex, as code generators give it.
public struct GraphQLPersistedQuery: Sendable, Hashable {
    /// The document's SHA-256 hash, in lower-case hex.
    public var sha256Hash: String
    /// Whether the document is sent too, as a client registering the query does; default `false`, the hash alone.
    public var includesDocument: Bool
    /// Whether it is sent as a `GET` with `operationName`, `variables` and `extensions` in the query, which
    /// caches may keep; default `false`, a `POST`.
    public var usesGET: Bool

    /// A persisted query by `sha256Hash`; see the properties for the defaults.
    public init(sha256Hash: String, includesDocument: Bool = false, usesGET: Bool = false) {
        self.sha256Hash = sha256Hash
        self.includesDocument = includesDocument
        self.usesGET = usesGET
    }
}

extension GraphQLService {
    /// `graphql`, relative to the client's base URL.
    public var endpoint: String { "graphql" }

    /// `POST`, or `GET` for a persisted query that asks for it (whose variables encode: else `POST`, whose body
    /// then fails with the encoder's ``WebServiceError/Service/invalidRequest(_:)`` sentence).
    public var method: HTTPMethod {
        guard let persistedQuery, persistedQuery.usesGET, queryParametersForGET != nil else { return .post }
        return .get
    }

    /// The first operation ``document`` names.
    public var operationName: String? { GraphQLDocument.firstOperationName(in: document) }

    /// No persisted query: the document is sent.
    public var persistedQuery: GraphQLPersistedQuery? { nil }

    /// The request's JSON body; `nil` for a persisted query sent as a `GET`.
    public var body: RequestBody? {
        guard method == .post else { return nil }
        return .json(GraphQLRequestFields(service: self))
    }

    /// A persisted query's fields, as a `GET` carries them; none otherwise.
    public var parameters: Parameters {
        guard persistedQuery?.usesGET == true else { return [:] }
        return queryParametersForGET ?? [:]
    }

    /// The query a persisted `GET` carries, `nil` when its variables do not encode.
    private var queryParametersForGET: Parameters? {
        guard let persistedQuery else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let variables = try? encoder.encode(self.variables),
            let extensions = try? encoder.encode(GraphQLRequestFields<Self>.Extensions(persistedQuery: persistedQuery))
        else { return nil }
        var parameters: Parameters = [
            "variables": String(decoding: variables, as: UTF8.self), "extensions": String(decoding: extensions, as: UTF8.self),
        ]
        if let operationName { parameters["operationName"] = .string(operationName) }
        if persistedQuery.includesDocument { parameters["query"] = .string(document) }
        return parameters
    }

    /// ``WebServiceError/Service/graphQL(_:)`` for an answer with errors (but 429 and 503), else the
    /// ``RawResponse/commonServiceError`` of any service.
    public func serviceError(in reply: RawResponse) -> WebServiceError.Service? {
        if reply.statusCode != 429, reply.statusCode != 503, let errors = GraphQLErrors(reply: reply) {
            return .graphQL(errors)
        }
        return reply.commonServiceError
    }

    /// The answer's `data`, decoded as ``WebService/Response``.
    public func response(from json: JSON) throws -> Response {
        try json["data"].decode(Response.self, dateFormat: responseDateFormat)
    }
}

extension GraphQLService where Variables == GraphQLNoVariables {
    /// No variables: `{}`.
    public var variables: GraphQLNoVariables { GraphQLNoVariables() }
}

/// A GraphQL request's JSON body: `query` (left out for a persisted query sent by hash alone),
/// `operationName` (left out when anonymous), `variables` and, for a persisted query, `extensions`.
struct GraphQLRequestFields<Service: GraphQLService>: Encodable, Sendable {
    struct PersistedQuery: Encodable, Sendable {
        let version = 1
        let sha256Hash: String
    }

    struct Extensions: Encodable, Sendable {
        let persistedQuery: PersistedQuery

        init(persistedQuery: GraphQLPersistedQuery) {
            self.persistedQuery = PersistedQuery(sha256Hash: persistedQuery.sha256Hash)
        }
    }

    let query: String?
    let operationName: String?
    let variables: Service.Variables
    let extensions: Extensions?

    init(service: Service) {
        let persisted = service.persistedQuery
        query = persisted.map { $0.includesDocument ? service.document : nil } ?? service.document
        operationName = service.operationName
        variables = service.variables
        extensions = persisted.map(Extensions.init)
    }
}

import ServiceReplayShared

/// How the server recognizes a GraphQL request, whatever the client: a JSON body (or a batch of them) with a
/// `query` that reads as a document or an `extensions.persistedQuery`, or a `GET` whose query string carries the
/// same fields (`query`, `operationName`, `variables`, `extensions`), as Apollo's persisted queries send them.
///
/// A `GET` is read into the JSON body a `POST` would carry (``RequestParts`` does it), so that one set of rules
/// applies to both: the document compares normalized (``GraphQLDocument``), the variables compare as JSON, a
/// cassette's `ignoreBodyPaths` (`$.variables.clientMutationId`) leaves variables out, and a near miss names
/// the variable that differs (`$.variables.login`).
enum GraphQLRequest {
    /// The members a GraphQL request carries over `GET`; any other query field stays a query field.
    static let fieldNames: Set<String> = ["query", "operationName", "variables", "extensions"]

    /// Whether `members` is one GraphQL request: a `query` string that reads as a document, or an
    /// `extensions.persistedQuery` object (a persisted query sends its hash instead of its document).
    static func isRequest(_ members: CassetteJSON.Members) -> Bool {
        if case .string(let query)? = members["query"], GraphQLDocument.looksLikeDocument(query) { return true }
        if case .object(let extensions)? = members["extensions"], case .object? = extensions["persistedQuery"] { return true }
        return false
    }

    /// The GraphQL requests `body` holds: itself when it is one, the requests of a batch (an array), else none.
    private static func requests(in body: BodyContent) -> [CassetteJSON.Members] {
        guard case .json(let value) = body else { return [] }
        switch value {
        case .object(let members): return isRequest(members) ? [members] : []
        case .array(let elements):
            return elements.compactMap { element in
                guard case .object(let members) = element, isRequest(members) else { return nil }
                return members
            }
        default: return []
        }
    }

    /// The operation names of a body read as GraphQL: one per request (several for a batch), each its
    /// `operationName`, else the name of the first operation its document defines; empty when the body is not
    /// GraphQL or every operation is anonymous.
    static func operationNames(of body: BodyContent) -> [String] {
        requests(in: body).compactMap { members in
            if case .string(let name)? = members["operationName"], !name.isEmpty { return name }
            guard case .string(let query)? = members["query"] else { return nil }
            return GraphQLDocument.firstOperationName(in: query)
        }
    }

    /// Whether `body` is a GraphQL request, or a batch holding one (see ``isRequest(_:)``).
    static func isGraphQL(_ body: BodyContent) -> Bool {
        !requests(in: body).isEmpty
    }

    /// Whether `body` is GraphQL and only reads: each request in it runs a query (the operation its
    /// `operationName` names, else its document's first), so sending it again changes nothing on the server. A
    /// persisted query sends no document, so it cannot be told read-only here.
    static func isReadOnly(_ body: BodyContent) -> Bool {
        let requests = requests(in: body)
        return !requests.isEmpty
            && requests.allSatisfy { members in
                guard case .string(let query)? = members["query"] else { return false }
                let operations = GraphQLDocument.operations(in: query)
                if case .string(let name)? = members["operationName"], !name.isEmpty {
                    return operations.first { $0.name == name }?.type == "query"
                }
                return operations.first?.type == "query"
            }
    }

    /// `value` with the document of each GraphQL request in it normalized, a missing `operationName` filled in
    /// from a document with one named operation and missing `variables` as `{}`; `value` itself when it holds no
    /// GraphQL request.
    /// Only the top level is looked at (one request or a batch), so other JSON bodies cost one lookup.
    static func normalizingDocuments(_ value: CassetteJSON) -> CassetteJSON {
        switch value {
        case .object(var members):
            guard isRequest(members), case .string(let query)? = members["query"] else { return value }
            let document = GraphQLDocument.normalized(query)
            members["query"] = .string(document)
            // What a server reads the same: no operationName and the document's only operation's name, no
            // variables and `{}`. Clients differ in which they send.
            if members["operationName"] == nil || members["operationName"] == .null {
                let operations = GraphQLDocument.operations(inNormalized: document)
                if operations.count == 1, let name = operations[0].name { members["operationName"] = .string(name) }
            }
            if members["variables"] == nil || members["variables"] == .null { members["variables"] = .object([:]) }
            return .object(members)
        case .array(let elements):
            guard isGraphQL(.json(value)) else { return value }
            return .array(elements.map(normalizingDocuments))
        default:
            return value
        }
    }

    /// A `GET`'s query fields read as a GraphQL request: the request's JSON body (`variables` and `extensions`
    /// parsed as JSON where they parse, else kept as text) and the query fields that remain; `nil` when the
    /// fields are not a GraphQL request (see ``isRequest(_:)``) or name a GraphQL field twice.
    static func fromQuery(_ fields: [FormField]) -> (body: CassetteJSON, rest: [FormField])? {
        guard fields.contains(where: { $0.name == "query" || $0.name == "extensions" }) else { return nil }
        var members = CassetteJSON.Members()
        var rest: [FormField] = []
        for field in fields {
            guard fieldNames.contains(field.name) else {
                rest.append(field)
                continue
            }
            guard members[field.name] == nil else { return nil }
            if field.name == "variables" || field.name == "extensions", let parsed = try? CassetteJSON(parsing: field.value) {
                members[field.name] = parsed
            } else {
                members[field.name] = .string(field.value)
            }
        }
        return isRequest(members) ? (.object(members), rest) : nil
    }
}

extension RecordedRequest {
    /// The GraphQL operations this request asks for, as ``GraphQLRequest`` reads them; empty when it is not a
    /// GraphQL request. Read on each call: for listings and reports, not for the per-request path.
    package var graphQLOperations: [String] { GraphQLRequest.operationNames(of: RequestParts(recorded: self).body) }

    /// Whether this is a GraphQL request (see ``GraphQLRequest``), named or not.
    package var isGraphQL: Bool { GraphQLRequest.isGraphQL(RequestParts(recorded: self).body) }

    /// Whether this is a GraphQL request that only reads (queries, no mutation), so that sending it again to
    /// check drift changes nothing: see ``GraphQLRequest/isReadOnly(_:)``.
    package var isReadOnlyGraphQL: Bool { GraphQLRequest.isReadOnly(RequestParts(recorded: self).body) }

    /// `METHOD TARGET`, and for a GraphQL request its operations: `POST /graphql (GraphQL User)`.
    package var titleWithOperations: String {
        let operations = graphQLOperations
        return "\(method) \(target)" + (operations.isEmpty ? "" : " (GraphQL \(operations.joined(separator: ", ")))")
    }
}

extension HTTPRequest {
    /// The GraphQL operations this received request asks for; see ``RecordedRequest/graphQLOperations``.
    package var graphQLOperations: [String] { GraphQLRequest.operationNames(of: RequestParts(received: self).body) }
}

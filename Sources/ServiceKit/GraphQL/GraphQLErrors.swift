import Foundation

/// The errors a GraphQL server reported in its answer's `errors` array, and the partial `data` it sent beside
/// them: what ``WebServiceError/Service/graphQL(_:)`` carries.
public struct GraphQLErrors: Hashable, Sendable {
    /// The errors, in the server's order; never empty.
    public let errors: [GraphQLError]
    /// The answer's `data` when it held any (`nil` when absent or `null`): the fields the server could resolve.
    /// Read it with ``partialData(as:dateFormat:)``.
    public let data: JSONValue?

    /// Reads the errors of `reply`; `nil` when its body is not JSON or its `errors` array is absent or empty.
    init?(reply: RawResponse) {
        guard let json = reply.json, let errors = json["errors"].array, !errors.isEmpty else { return nil }
        self.errors = errors.map(GraphQLError.init)
        data = json["data"].value
    }

    /// The partial `data` decoded as `type`, as the service would decode a whole answer; `nil` when the server
    /// sent none.
    /// - Throws: ``WebServiceError`` (`.missingField` or `.invalidField`, with the key path) when it does not decode.
    public func partialData<Value: Decodable>(as type: Value.Type, dateFormat: DateFormat = .iso8601) throws(WebServiceError) -> Value? {
        guard let data else { return nil }
        return try JSON(data).decode(type, dateFormat: dateFormat)
    }

    /// The first error's message, for the error's sentence.
    var message: String { errors[0].message }
}

extension RawResponse {
    /// Whether the body is JSON with a non-empty `errors` array, as a GraphQL server reports errors.
    package var hasGraphQLErrors: Bool { GraphQLErrors(reply: self) != nil }
}

/// One entry of a GraphQL answer's `errors`: its message, the path of the field it concerns and its code, the
/// machine-readable kind most servers give in `extensions.code` (`FORBIDDEN`, `UNAUTHENTICATED`) and GitHub in
/// `type` (`NOT_FOUND`, `RATE_LIMITED`).
public struct GraphQLError: Hashable, Sendable {
    /// One step of ``path``: a field's name or a list's index.
    public enum PathElement: Hashable, Sendable {
        /// A field, by its name (or alias) in the response.
        case field(String)
        /// An element of a list, counted from zero.
        case index(Int)
    }

    /// What went wrong, for people; empty when the server sent none.
    public let message: String
    /// Where in `data` it happened (`["user", "repositories", 2]`); empty for an error about the whole request.
    public let path: [PathElement]
    /// `extensions.code`, else `type` (GitHub's spelling), when the server sent one.
    public let code: String?
    /// The whole `extensions` object when the server sent one.
    public let extensions: JSONValue?

    init(_ json: JSON) {
        message = json["message"].string ?? ""
        path = (json["path"].array ?? []).compactMap { step in
            switch step.value {
            case .integer(let index)?: .index(index)
            case .string(let name)?: .field(name)
            default: nil
            }
        }
        code = json["extensions"]["code"].string ?? json["type"].string
        extensions = json["extensions"].value
    }
}

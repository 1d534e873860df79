import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceKit

/// The signed-in user, through GitHub's GraphQL API (`POST /graphql`, operation `Viewer`).
///
/// GitHub answers an error in a 200 with an `errors` array, such as a rate limit
/// (`{"errors": [{"type": "RATE_LIMITED", ...}]}`): that ends as `.service(.graphQL(...))`, its code `RATE_LIMITED`.
public struct GitHubViewerQuery: GraphQLService {
    /// The fields read.
    public struct Response: Decodable, Sendable, Equatable {
        /// The signed-in user.
        public let viewer: GitHubAccount
    }

    /// The query for the signed-in user.
    public init() {}

    /// `query Viewer { viewer { login name } }`.
    public var document: String {
        """
        query Viewer {
          viewer { login name }
        }
        """
    }

    /// GitHub's media type and API version.
    public func configure(_ request: inout URLRequest) {
        GitHubAPI.configure(&request)
    }
}

/// One repository by owner and name (operation `Repository`). A repository that does not exist is
/// `.service(.graphQL(...))` with the code `NOT_FOUND` and the path `repository`, as GitHub reports it.
public struct GitHubRepositoryQuery: GraphQLService {
    /// The operation's variables.
    public struct Variables: Encodable, Sendable {
        /// The owner's login.
        public let owner: String
        /// The repository's name.
        public let name: String
    }

    /// The fields read.
    public struct Response: Decodable, Sendable, Equatable {
        /// The repository, `nil` when GitHub sent `null` beside an error.
        public let repository: GitHubRepository?
    }

    /// The owner's login (`octocat`).
    public var owner: String
    /// The repository's name (`Hello-World`).
    public var name: String

    /// The query for `owner/name`.
    public init(owner: String, name: String) {
        self.owner = owner
        self.name = name
    }

    /// `query Repository($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { ... } }`.
    public var document: String {
        """
        query Repository($owner: String!, $name: String!) {
          repository(owner: $owner, name: $name) { nameWithOwner stargazerCount }
        }
        """
    }

    /// `owner` and `name`.
    public var variables: Variables { Variables(owner: owner, name: name) }

    /// GitHub's media type and API version.
    public func configure(_ request: inout URLRequest) {
        GitHubAPI.configure(&request)
    }
}

/// Stars a repository or an issue by its node ID (mutation `AddStar`), and reads its new star count.
public struct GitHubAddStarMutation: GraphQLService {
    /// The operation's variables.
    public struct Variables: Encodable, Sendable {
        /// The node ID of the repository or issue to star.
        public let starrableId: String
    }

    /// The fields read.
    public struct Response: Decodable, Sendable, Equatable {
        /// The mutation's payload.
        public let addStar: Payload
    }

    /// What `addStar` returns.
    public struct Payload: Decodable, Sendable, Equatable {
        /// The starred item.
        public let starrable: Starrable
    }

    /// A starred item's count.
    public struct Starrable: Decodable, Sendable, Equatable {
        /// Its stars, the new one included.
        public let stargazerCount: Int
    }

    /// The node ID to star (`MDEwOlJlcG9zaXRvcnkxMjk2MjY5`).
    public var starrableId: String

    /// The mutation starring `starrableId`.
    public init(starrableId: String) {
        self.starrableId = starrableId
    }

    /// `mutation AddStar($starrableId: ID!) { addStar(input: {starrableId: $starrableId}) { ... } }`.
    public var document: String {
        """
        mutation AddStar($starrableId: ID!) {
          addStar(input: {starrableId: $starrableId}) { starrable { stargazerCount } }
        }
        """
    }

    /// `starrableId`.
    public var variables: Variables { Variables(starrableId: starrableId) }

    /// GitHub's media type and API version.
    public func configure(_ request: inout URLRequest) {
        GitHubAPI.configure(&request)
    }
}

/// An account as the GraphQL queries read it.
public struct GitHubAccount: Decodable, Sendable, Equatable {
    /// The login (`octocat`).
    public let login: String
    /// The display name, `nil` when the user set none.
    public let name: String?
}

/// A repository as ``GitHubRepositoryQuery`` reads it.
public struct GitHubRepository: Decodable, Sendable, Equatable {
    /// `owner/name`.
    public let nameWithOwner: String
    /// How many stars it has.
    public let stargazerCount: Int
}

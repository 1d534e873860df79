import Foundation
import ServiceKit

/// A GitHub user's full profile.
public struct GitHubUserProfile: Hashable, Sendable {
    /// The fields the users list also has.
    public var user: GitHubUser
    /// The display name, when set.
    public var name: String?
    /// The company, when set.
    public var company: String?
    /// The blog or website as written (it need not be a URL), when set.
    public var blog: String?
    /// The location, when set.
    public var location: String?
    /// The public e-mail address, when shared.
    public var email: String?
    /// The biography, when set.
    public var bio: String?
    /// Public repositories.
    public var publicRepos: Int
    /// Followers.
    public var followers: Int
    /// Users followed.
    public var following: Int
    /// When the account was created.
    public var createdAt: Date

    /// A profile.
    public init(
        user: GitHubUser, name: String? = nil, company: String? = nil, blog: String? = nil,
        location: String? = nil, email: String? = nil, bio: String? = nil, publicRepos: Int, followers: Int,
        following: Int, createdAt: Date
    ) {
        self.user = user
        self.name = name
        self.company = company
        self.blog = blog
        self.location = location
        self.email = email
        self.bio = bio
        self.publicRepos = publicRepos
        self.followers = followers
        self.following = following
        self.createdAt = createdAt
    }

    /// Reads the user's fields plus `public_repos`, `followers`, `following` and `created_at` (ISO 8601), all
    /// required; the text fields are optional and an empty string counts as absent.
    init(json: JSON) throws {
        func text(_ key: String) -> String? {
            json[key].string.flatMap { $0.isEmpty ? nil : $0 }
        }
        self.init(
            user: try GitHubUser(json: json), name: text("name"), company: text("company"), blog: text("blog"),
            location: text("location"), email: text("email"), bio: text("bio"),
            publicRepos: try json["public_repos"].required.int, followers: try json["followers"].required.int,
            following: try json["following"].required.int, createdAt: try json["created_at"].required.date(.iso8601))
    }
}

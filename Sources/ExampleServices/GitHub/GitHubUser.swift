import Foundation
import ServiceKit

/// A GitHub user as the users list shows it.
public struct GitHubUser: Hashable, Sendable {
    /// The login (`mojombo`).
    public var login: String
    /// The numeric id, which `since` pages by.
    public var id: Int
    /// The avatar image.
    public var avatarURL: URL
    /// The profile page on github.com (`html_url`).
    public var profileURL: URL
    /// `User` or `Organization`.
    public var type: String
    /// Whether the user is a GitHub administrator.
    public var isSiteAdmin: Bool

    /// A user.
    public init(login: String, id: Int, avatarURL: URL, profileURL: URL, type: String, isSiteAdmin: Bool) {
        self.login = login
        self.id = id
        self.avatarURL = avatarURL
        self.profileURL = profileURL
        self.type = type
        self.isSiteAdmin = isSiteAdmin
    }

    /// Reads `login`, `id`, `avatar_url`, `html_url`, `type` and `site_admin`, all required.
    init(json: JSON) throws {
        self.init(
            login: try json["login"].required.string, id: try json["id"].required.int,
            avatarURL: try json["avatar_url"].required.url, profileURL: try json["html_url"].required.url,
            type: try json["type"].required.string, isSiteAdmin: try json["site_admin"].required.bool)
    }
}

import ServiceKit

/// Lists a user's friends on the Nice API (`GET /friends?user_id=...`).
///
/// The API also wants `token`: give it once to the client as a common parameter rather than to every
/// service, for example `.init(commonParameters: { ["token": await session.token] })`. A bad token arrives as
/// 401 `{"message": "Invalid token"}`, which ends as `.service(.httpStatus(401, message: "Invalid token"))`.
public struct FriendsService: WebService {
    /// Whose friends to list.
    public var userID: String

    /// A call listing the friends of `userID`.
    public init(userID: String) {
        self.userID = userID
    }

    /// `/friends`.
    public var endpoint: String { "/friends" }
    /// `user_id`.
    public var parameters: Parameters { ["user_id": userID] }

    /// Reads the array of users; a user without `id` is skipped, `email` and `name` may be absent.
    public func response(from json: JSON) throws -> [Friend] {
        try json.required.array.compactMap { user in
            guard let id = user["id"].string else { return nil }
            return Friend(id: id, email: user["email"].string, name: user["name"].string)
        }
    }
}

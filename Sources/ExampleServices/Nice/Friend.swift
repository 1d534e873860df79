/// One of a user's friends.
public struct Friend: Hashable, Sendable {
    /// The friend's user id.
    public var id: String
    /// The friend's e-mail address, when shared.
    public var email: String?
    /// The friend's display name, when set.
    public var name: String?

    /// A friend.
    public init(id: String, email: String? = nil, name: String? = nil) {
        self.id = id
        self.email = email
        self.name = name
    }
}

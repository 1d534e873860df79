/// One feed entry.
public struct FeedItem: Hashable, Sendable {
    /// The status text.
    public var status: String
    /// The author's user id.
    public var userID: Int
    /// The author's user name.
    public var userName: String

    /// A feed entry.
    public init(status: String, userID: Int, userName: String) {
        self.status = status
        self.userID = userID
        self.userName = userName
    }
}

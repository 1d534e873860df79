/// One message of a chat conversation, as OpenAI-compatible chat APIs take it.
public struct ChatMessage: Hashable, Sendable {
    /// Who speaks: `system`, `user` or `assistant` (sent as given).
    public var role: String
    /// What they say.
    public var content: String

    /// A message from `role`.
    public init(role: String, content: String) {
        self.role = role
        self.content = content
    }

    /// A `system` message: instructions for the model.
    public static func system(_ content: String) -> ChatMessage { ChatMessage(role: "system", content: content) }
    /// A `user` message.
    public static func user(_ content: String) -> ChatMessage { ChatMessage(role: "user", content: content) }
    /// An `assistant` message: an earlier answer.
    public static func assistant(_ content: String) -> ChatMessage { ChatMessage(role: "assistant", content: content) }
}

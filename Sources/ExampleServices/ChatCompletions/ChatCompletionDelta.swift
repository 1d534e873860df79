/// One chunk of a streamed chat completion (`"object": "chat.completion.chunk"`), reduced to its first
/// choice: concatenating every chunk's ``content`` gives the whole answer.
public struct ChatCompletionDelta: Hashable, Sendable {
    /// The completion's identifier, the same in every chunk of one answer.
    public var id: String
    /// The model that answered, when the chunk names it.
    public var model: String?
    /// The speaker's role; usually only in the first chunk.
    public var role: String?
    /// The text this chunk adds; `nil` when it adds none (the first and last chunks often do not).
    public var content: String?
    /// Why the answer ended (`stop`, `length`, ...); only in the last chunk of content.
    public var finishReason: String?

    /// A delta; only `id` is required.
    public init(
        id: String, model: String? = nil, role: String? = nil, content: String? = nil,
        finishReason: String? = nil
    ) {
        self.id = id
        self.model = model
        self.role = role
        self.content = content
        self.finishReason = finishReason
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceKit

/// A streamed chat completion from an OpenAI-compatible API: `POST {base}/chat/completions` with a JSON
/// body holding `model`, `messages` and `"stream": true`, answered by `data:` events each carrying a
/// `chat.completion.chunk`, and ending with `data: [DONE]`. Use a client whose base URL ends in `/v1`
/// (`https://api.openai.com/v1`) and whose headers carry `Authorization: Bearer <key>`.
///
/// Errors arrive in the API's shape `{"error": {"message", "type", "code"}}`: with a 4xx/5xx status before
/// the stream starts (`.httpStatus` with the message, or `.rateLimited` for 429), or as a `data:` event in
/// the middle of the stream (`.errorPayload` with the code, else the type). A stream that ends without
/// `[DONE]` was cut short: `.network(.connectionLost)`.
public struct ChatCompletionsService: StreamingService {
    /// The model to ask, such as `gpt-4o-mini`.
    public var model: String
    /// The conversation so far, oldest first.
    public var messages: [ChatMessage]
    /// Sampling temperature from 0 to 2; `nil` leaves the API's default.
    public var temperature: Double?

    /// A request for `model` to continue `messages`.
    public init(model: String, messages: [ChatMessage], temperature: Double? = nil) {
        self.model = model
        self.messages = messages
        self.temperature = temperature
    }

    /// `/chat/completions`.
    public var endpoint: String { "/chat/completions" }

    /// `.post`, with a JSON body.
    public var method: HTTPMethod { .post }

    /// `model`, `stream: true` and the temperature when set; the messages are added in ``configure(_:)``
    /// because they are objects.
    public var parameters: Parameters { ["model": model, "stream": true, "temperature": temperature] }

    /// Adds `messages` to the JSON body the client built.
    public func configure(_ request: inout URLRequest) {
        guard let body = request.httpBody, case .object(var members)? = try? JSONValue.parse(body) else { return }
        members["messages"] = .array(messages.map { .object(["role": .string($0.role), "content": .string($0.content)]) })
        request.httpBody = JSONValue.object(members).encoded()
    }

    /// The chunk's first choice; throws `.missingField("$.id")` for a chunk without an identifier.
    public func event(from message: ServerSentEvent) throws -> ChatCompletionDelta? {
        guard let chunk = message.json else {
            throw WebServiceError.service(.undecodableBody)
        }
        let choice = chunk["choices"][0]
        return ChatCompletionDelta(
            id: try chunk["id"].required.string, model: chunk["model"].string,
            role: choice["delta"]["role"].string, content: choice["delta"]["content"].string,
            finishReason: choice["finish_reason"].string)
    }

    /// `data: [DONE]`.
    public func isEndOfStream(_ message: ServerSentEvent) -> Bool {
        message.data == "[DONE]"
    }

    /// `true`: the API always ends a complete answer with `[DONE]`.
    public var requiresEndOfStream: Bool { true }
}

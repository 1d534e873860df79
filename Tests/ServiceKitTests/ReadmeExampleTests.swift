import Foundation
import ServiceKit
import ExampleServices
import ServiceKitTesting
import Testing

/// The README's ServiceKit example, kept compiling and true.
@Suite struct ReadmeExampleTests {
    struct ReadmeFriendsService: WebService {
        var userID: String
        var endpoint: String { "/friends" }
        var parameters: Parameters { ["user_id": userID] }
        func response(from json: JSON) throws -> [Friend] {
            try json.required.array.compactMap { user in
                user["id"].string.map { Friend(id: $0, email: user["email"].string, name: user["name"].string) }
            }
        }
    }

    @Test func readmeExample_sendsAndPages() async throws {
        // Given the README's client, on a scripted transport
        let transport = ScriptedTransport(
            .json([["id": "17", "email": "ann@example.com", "name": "Ann Lee"]]),
            .json(["currentPage": 1, "pageCount": 1, "resultCount": 0, "list": [], "message": "No feeds found."]))
        let nice = WebServiceClient(baseURL: URL(string: "https://api.nice.example/v1")!,
                                    configuration: .init(commonParameters: { ["token": "t"] }, retryPolicy: RetryPolicy()),
                                    transport: transport)
        // When the example runs
        let friends = try await nice.send(ReadmeFriendsService(userID: "42"))
        var pages: [FeedPage] = []
        for try await page in nice.pages(of: FeedService(pageSize: 20)) { pages.append(page) }
        // Then it does what the README says
        #expect(friends == [Friend(id: "17", email: "ann@example.com", name: "Ann Lee")])
        #expect(transport.requests.first?.url?.query == "user_id=42&token=t")
        #expect(pages.map(\.noResultsMessage) == ["No feeds found."])
    }

    @Test func readmeStreamExample_assemblesTheAnswer() async throws {
        // Given the README's OpenAI client, on a streaming transport
        let transport = StreamingTransport()
        transport.send(#"data: {"id":"c1","choices":[{"delta":{"content":"Hello"}}]}"# + "\n\n")
        transport.send(#"data: {"id":"c1","choices":[{"delta":{"content":"!"}}]}"# + "\n\ndata: [DONE]\n\n")
        let key = "sk-test"
        let openAI = WebServiceClient(baseURL: URL(string: "https://api.openai.com/v1")!,
                                      configuration: .init(headers: ["Authorization": "Bearer \(key)"]),
                                      transport: transport)
        // When the example runs
        var answer = ""
        for try await delta in openAI.events(of: ChatCompletionsService(model: "gpt-4o-mini", messages: [.user("Hi")])) {
            answer += delta.content ?? ""
        }
        // Then the deltas make the answer
        #expect(answer == "Hello!")
        #expect(transport.requests.first?.url?.absoluteString == "https://api.openai.com/v1/chat/completions")
    }
}

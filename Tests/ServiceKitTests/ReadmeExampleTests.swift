import Foundation
import ServiceKit
import ExampleServices
import ServiceKitTesting
import Testing

/// The ServiceKit examples of the README and of the "Services and errors" article
/// (`Sources/ServiceKit/ServiceKit.docc/ServicesAndErrors.md`), kept compiling and true.
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

    /// The article's error-body hook, word for word: an API answering `{"ok": false, "error": "…"}`.
    struct TableRowsService: WebService {
        var sql: String
        var endpoint: String { "/fixtures.json" }
        var parameters: Parameters { ["sql": sql, "_shape": "array"] }

        func response(from json: JSON) throws -> [String] {
            try json.required.array.compactMap { $0["name"].string }
        }

        func serviceError(in reply: RawResponse) -> WebServiceError.Service? {
            if let json = reply.json, json["ok"].bool == false {
                return .errorPayload(code: nil, message: json["error"].string)
            }
            return reply.commonServiceError
        }
    }

    @Test func errorBodyHook_readsOkFalse_asAnErrorPayload_andLeavesTheRestToTheDefault() async throws {
        // Given Datasette's answers: a 400 with its own error shape, a 200 with rows, and a 503 with no body
        let transport = ScriptedTransport(
            .json(["ok": false, "error": "no such table: users"], status: 400),
            .json([["name": "Ann"], ["name": "Bo"]]),
            .json(["message": "down for maintenance"], status: 503))
        let datasette = WebServiceClient(baseURL: URL(string: "https://datasette.example")!, transport: transport)
        let service = TableRowsService(sql: "select name from users")
        // When the 400 arrives, then it is the error payload, with its status kept
        let error = await #expect(throws: WebServiceError.self) { try await datasette.send(service) }
        #expect(error?.reason == .service(.errorPayload(code: nil, message: "no such table: users")))
        #expect(error?.statusCode == 400)
        // And the default shape (without the hook) would have been the status
        #expect(
            RawResponse(
                statusCode: 400, headers: ["Content-Type": "application/json"],
                body: Data(#"{"ok": false, "error": "no such table: users"}"#.utf8)
            ).commonServiceError
                == .httpStatus(400, message: "no such table: users"))
        // When rows arrive, then they map; when another error arrives, the default still reads it
        #expect(try await datasette.send(service) == ["Ann", "Bo"])
        let unavailable = await #expect(throws: WebServiceError.self) { try await datasette.send(service) }
        #expect(unavailable?.reason == .service(.httpStatus(503, message: "down for maintenance")))
        #expect(transport.requests.first?.url?.query == "sql=select%20name%20from%20users&_shape=array")
    }

    @Test func readmeExample_sendsAndPages() async throws {
        // Given the README's client, on a scripted transport
        let transport = ScriptedTransport(
            .json([["id": "17", "email": "ann@example.com", "name": "Ann Lee"]]),
            .json(["currentPage": 1, "pageCount": 1, "resultCount": 0, "list": [], "message": "No feeds found."]))
        let nice = WebServiceClient(
            baseURL: URL(string: "https://api.nice.example/v1")!,
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
        let openAI = WebServiceClient(
            baseURL: URL(string: "https://api.openai.com/v1")!,
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

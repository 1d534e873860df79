import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
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

    // MARK: - The article's "Sending data", word for word, against Kinto's records API

    /// A Kinto record; `etag` is no member of the body: `TaskService` fills it from the `ETag` header.
    struct TaskRecord: Decodable, Equatable, Sendable {
        var id: String
        var title: String
        var done: Bool
        var etag: String?
    }

    struct NewTask: Encodable, Sendable {
        var title: String
        var done: Bool
    }

    struct CreateTaskService: WebService {
        var title: String
        var done = false
        var endpoint: String { "/buckets/default/collections/tasks/records" }
        var method: HTTPMethod { .post }
        var parameters: Parameters { ["data": ["title": title, "done": done] as Parameters] }

        func response(from json: JSON) throws -> TaskRecord {
            try json["data"].decode(TaskRecord.self)
        }
    }

    struct ImportTaskService: WebService {
        var task: NewTask  // Encodable & Sendable
        var endpoint: String { "/buckets/default/collections/tasks/records" }
        var method: HTTPMethod { .post }
        var body: RequestBody? { .json(["data": task]) }

        func response(from json: JSON) throws -> TaskRecord {
            try json["data"].decode(TaskRecord.self)
        }
    }

    struct TaskService: WebService {
        var id: String
        var endpoint: String { "/buckets/default/collections/tasks/records/\(id)" }

        func response(from json: JSON) throws -> TaskRecord {
            try json["data"].decode(TaskRecord.self)
        }

        func decodeResponse(_ reply: RawResponse) throws -> TaskRecord {
            var task = try response(from: reply.requiredJSON)
            task.etag = reply.etag  // "1434641515332", quotes included
            return task
        }
    }

    struct RenameTaskService: WebService {
        var id: String
        var title: String
        var etag: String  // the version the user edited
        var endpoint: String { "/buckets/default/collections/tasks/records/\(id)" }
        var method: HTTPMethod { .patch }
        var parameters: Parameters { ["data": ["title": title] as Parameters] }
        var condition: RequestCondition? { .ifMatch(etag) }

        func response(from json: JSON) throws -> TaskRecord {
            try json["data"].decode(TaskRecord.self)
        }
    }

    struct DeleteTaskService: WebService {
        var id: String
        var etag: String?
        var endpoint: String { "/buckets/default/collections/tasks/records/\(id)" }
        var method: HTTPMethod { .delete }
        var condition: RequestCondition? { etag.map(RequestCondition.ifMatch) }

        func response(from json: JSON) throws -> Bool {
            try json["data"]["deleted"].required.bool
        }
    }

    struct CompleteTaskService: WebService {
        var id: String
        var endpoint: String { "/buckets/default/collections/tasks/records/\(id)" }
        var method: HTTPMethod { .patch }
        var body: RequestBody? { .json(["data": ["done": true]]) }

        func configure(_ request: inout URLRequest) {
            request.setValue("application/merge-patch+json", forHTTPHeaderField: "Content-Type")
        }

        func response(from json: JSON) throws -> TaskRecord {
            try json["data"].decode(TaskRecord.self)
        }
    }

    static let kintoURL = URL(string: "https://kinto.example/v1")!
    static let recordsURL = "https://kinto.example/v1/buckets/default/collections/tasks/records"

    /// Kinto's answer holding one record, with its version.
    static func record(_ title: String, done: Bool = false, etag: String = #""1434641515332""#) -> ScriptedTransport.Step {
        .json(["data": ["id": "t1", "title": .string(title), "done": .bool(done), "last_modified": 1_434_641_515_332]], headers: [("ETag", etag)])
    }

    struct GraphQLUser: Decodable, Sendable, Equatable {
        let login: String
        let name: String?
    }

    struct UserQuery: GraphQLService {
        struct Variables: Encodable, Sendable { let login: String }
        struct Response: Decodable, Sendable { let user: GraphQLUser? }
        let login: String
        var document: String { "query User($login: String!) { user(login: $login) { login name } }" }
        var variables: Variables { Variables(login: login) }
    }

    func userName(_ login: String, with client: WebServiceClient) async throws -> String? {
        do throws(WebServiceError) {
            return try await client.send(UserQuery(login: login)).user?.name
        } catch {
            guard case .service(.graphQL(let failure)) = error.reason else { throw error }
            if failure.errors.contains(where: { $0.code == "NOT_FOUND" }) { return nil }
            // The fields the server could resolve sit next to the errors.
            return try failure.partialData(as: UserQuery.Response.self)?.user?.name
        }
    }

    @Test func graphQLExample_sendsTheOperation_andReadsDataErrorsAndPartialData() async throws {
        // Given a GraphQL API answering with data, then NOT_FOUND, then a partial answer, then a 500
        let transport = ScriptedTransport(
            .json(["data": ["user": ["login": "octocat", "name": "The Octocat"]]]),
            .json(["errors": [["message": "no such user", "extensions": ["code": "NOT_FOUND"]]]]),
            .json(["data": ["user": ["login": "mona", "name": "Mona"]], "errors": [["message": "bio is private", "path": ["user", "bio"]]]]),
            .json(["message": "down"], status: 500))
        let client = WebServiceClient(baseURL: URL(string: "https://api.example.com")!, transport: transport)
        // When the article's function asks four times
        let found = try await userName("octocat", with: client)
        let missing = try await userName("nobody", with: client)
        let partial = try await userName("mona", with: client)
        let down = await #expect(throws: WebServiceError.self) { try await userName("octocat", with: client) }
        // Then the operation went out as its document, name and variables, and each answer read as the article says
        #expect(transport.requests.first?.url?.absoluteString == "https://api.example.com/graphql")
        #expect(
            transport.requests.first?.httpBody
                == Data(
                    #"{"operationName":"User","query":"query User($login: String!) { user(login: $login) { login name } }","variables":{"login":"octocat"}}"#
                        .utf8))
        #expect(found == "The Octocat")
        #expect(missing == nil)
        #expect(partial == "Mona")
        #expect(down?.family == .service)
    }

    @Test func postWithANestedBody_sendsTheArticlesBytes_asParametersOrAsAnEncodableValue() async throws {
        // Given Kinto answering each create with the record
        let transport = ScriptedTransport(Self.record("Buy milk"))
        let kinto = WebServiceClient(baseURL: Self.kintoURL, transport: transport)
        // When the task is created from parameters, then from an Encodable value
        let created = try await kinto.send(CreateTaskService(title: "Buy milk"))
        let imported = try await kinto.send(ImportTaskService(task: NewTask(title: "Buy milk", done: false)))
        // Then both send the article's bytes, as JSON, to the records
        let expected = Data(#"{"data":{"done":false,"title":"Buy milk"}}"#.utf8)
        #expect(transport.requests.map(\.httpBody) == [expected, expected])
        #expect(transport.requests.map(\.httpMethod) == ["POST", "POST"])
        #expect(transport.requests.map { $0.url?.absoluteString } == [Self.recordsURL, Self.recordsURL])
        #expect(transport.requests.map { $0.value(forHTTPHeaderField: "Content-Type") } == ["application/json", "application/json"])
        #expect(created == TaskRecord(id: "t1", title: "Buy milk", done: false))
        #expect(imported == created)
    }

    @Test func patchWithIfMatch_sendsTheLoadedETag_andA412_isPreconditionFailed() async throws {
        // Given a task loaded with its ETag; the rename refused because someone else changed it; the task reloaded
        let transport = ScriptedTransport(
            Self.record("Buy milk"),
            .json(["code": 412, "errno": 114, "error": "Precondition Failed", "message": "Resource was modified meanwhile"], status: 412),
            Self.record("Buy soy milk", etag: #""1434641600000""#))
        let kinto = WebServiceClient(baseURL: Self.kintoURL, configuration: .init(retryPolicy: RetryPolicy()), transport: transport)
        var task = try await kinto.send(TaskService(id: "t1"))
        let etag = try #require(task.etag)
        // When the article's code runs
        do throws(WebServiceError) {
            task = try await kinto.send(RenameTaskService(id: task.id, title: "Buy oat milk", etag: etag))
        } catch {
            guard error.reason == .service(.preconditionFailed) else { throw error }
            task = try await kinto.send(TaskService(id: task.id))  // show the other edit, then ask again
        }
        // Then the PATCH carried exactly the ETag received and the nested title, and the 412 led to the reload
        let patch = transport.requests[1]
        #expect(patch.httpMethod == "PATCH")
        #expect(patch.value(forHTTPHeaderField: "If-Match") == #""1434641515332""#)
        #expect(patch.httpBody == Data(#"{"data":{"title":"Buy oat milk"}}"#.utf8))
        #expect(transport.requests.map(\.httpMethod) == ["GET", "PATCH", "GET"])
        #expect(task == TaskRecord(id: "t1", title: "Buy soy milk", done: false, etag: #""1434641600000""#))
    }

    @Test func patchWithIfMatch_whenNobodyElseChangedIt_returnsTheRenamedTask() async throws {
        let transport = ScriptedTransport(Self.record("Buy oat milk", etag: #""1434641600000""#))
        let kinto = WebServiceClient(baseURL: Self.kintoURL, transport: transport)
        let renamed = try await kinto.send(RenameTaskService(id: "t1", title: "Buy oat milk", etag: #""1434641515332""#))
        #expect(renamed.title == "Buy oat milk")
        #expect(transport.requests.first?.url?.absoluteString == Self.recordsURL + "/t1")
    }

    @Test func delete_sendsNoBody_andIfMatchOnlyWithAnETag() async throws {
        // Given Kinto's answer to a DELETE
        let transport = ScriptedTransport(.json(["data": ["id": "t1", "last_modified": 1_434_641_600_000, "deleted": true]]))
        let kinto = WebServiceClient(baseURL: Self.kintoURL, transport: transport)
        // When the task is deleted with and without the version the user saw
        let deleted = try await kinto.send(DeleteTaskService(id: "t1", etag: #""1434641515332""#))
        _ = try await kinto.send(DeleteTaskService(id: "t1"))
        // Then both are bodiless DELETEs of the record, conditional only with the ETag
        #expect(deleted)
        #expect(transport.requests.map(\.httpMethod) == ["DELETE", "DELETE"])
        #expect(transport.requests.map(\.httpBody) == [nil, nil])
        #expect(transport.requests.map { $0.value(forHTTPHeaderField: "If-Match") } == [#""1434641515332""#, nil])
        #expect(transport.requests.map { $0.url?.absoluteString } == [Self.recordsURL + "/t1", Self.recordsURL + "/t1"])
    }

    @Test func configure_setsTheMergePatchType_overTheBodysOwn() async throws {
        // Given a client whose headers name a Content-Type too
        let transport = ScriptedTransport(Self.record("Buy milk", done: true))
        let kinto = WebServiceClient(
            baseURL: Self.kintoURL, configuration: .init(headers: ["Content-Type": "text/plain", "Accept-Language": "fr"]), transport: transport)
        // When the task is completed
        let task = try await kinto.send(CompleteTaskService(id: "t1"))
        // Then the service's header won, the client's other header stayed, and the body is the patch
        let request = try #require(transport.requests.first)
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/merge-patch+json")
        #expect(request.value(forHTTPHeaderField: "Accept-Language") == "fr")
        #expect(request.httpBody == Data(#"{"data":{"done":true}}"#.utf8))
        #expect(task.done)
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

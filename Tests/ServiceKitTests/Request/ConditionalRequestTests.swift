import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceKit
import ServiceKitTesting
import Testing

/// An `ETag` from one response going back as `If-Match` or `If-None-Match`, byte for byte, and the server's
/// refusals as cases of their own.
@Suite struct ConditionalRequestTests {
    /// Kinto's record: its body, and the version from the `ETag` header.
    struct Task: Equatable, Sendable {
        var title: String
        var etag: String?
    }

    /// `GET` a record, its version read from the response's headers.
    struct TaskService: WebService {
        var condition: RequestCondition?
        var endpoint: String { "/buckets/default/collections/tasks/records/t1" }

        func response(from json: JSON) throws -> Task { Task(title: try json["data"]["title"].required.string) }

        func decodeResponse(_ reply: RawResponse) throws -> Task {
            var task = try response(from: reply.requiredJSON)
            task.etag = reply.etag
            return task
        }
    }

    /// `PATCH` a record's title, only if it is still the version `etag` names.
    struct RenameService: WebService {
        var title: String
        var etag: String
        var overridingHeader: (String, String)?
        var endpoint: String { "/buckets/default/collections/tasks/records/t1" }
        var method: HTTPMethod { .patch }
        var parameters: Parameters { ["data": ["title": title] as Parameters] }
        var condition: RequestCondition? { .ifMatch(etag) }

        func configure(_ request: inout URLRequest) {
            if let (name, value) = overridingHeader {
                request.setValue(value, forHTTPHeaderField: name)
            }
        }

        func response(from json: JSON) throws -> String { try json["data"]["title"].required.string }
    }

    static let record: JSONValue = ["data": ["id": "t1", "title": "Buy milk", "last_modified": 1_434_641_515_332]]

    func client(_ transport: ScriptedTransport, headers: [String: String] = [:]) -> WebServiceClient {
        makeClient(transport, baseURL: "https://kinto.example/v1", retryPolicy: RetryPolicy(jitter: 0), headers: headers)
    }

    @Test(arguments: [#""1434641515332""#, #"W/"0815""#, "*"])
    func theETagOfAResponse_goesBackAsIfMatch_byteForByte(etag: String) async throws {
        // Given a record loaded with its ETag, then the PATCH answered
        let transport = ScriptedTransport(
            .json(Self.record, headers: [("ETag", etag)]),
            .json(["data": ["title": "Buy oat milk"]], headers: [("ETag", #""1434641600000""#)]))
        let kinto = client(transport)
        let task = try await kinto.send(TaskService())
        // When it is renamed on condition of that version
        let title = try await kinto.send(RenameService(title: "Buy oat milk", etag: try #require(task.etag)))
        // Then the If-Match sent is exactly the ETag received, and the body is the nested object
        #expect(task == Task(title: "Buy milk", etag: etag))
        #expect(title == "Buy oat milk")
        let patch = try #require(transport.requests.last)
        #expect(patch.value(forHTTPHeaderField: "If-Match") == etag)
        #expect(patch.value(forHTTPHeaderField: "If-None-Match") == nil)
        #expect(patch.httpBody == Data(#"{"data":{"title":"Buy oat milk"}}"#.utf8))
        #expect(patch.httpMethod == "PATCH")
    }

    @Test func aChangeMadeElsewhere_isPreconditionFailed_andNotRetried() async throws {
        // Given Kinto's answer to an If-Match that no longer holds
        let transport = ScriptedTransport(
            .json(
                ["code": 412, "errno": 114, "error": "Precondition Failed", "message": "Resource was modified meanwhile"],
                status: 412),
            .json(["data": ["title": "never asked for"]]))
        // When the rename is sent
        let error = await #expect(throws: WebServiceError.self) {
            try await client(transport).send(RenameService(title: "Buy oat milk", etag: #""1434641515332""#))
        }
        // Then it is the case a caller switches on, with the status, after one request
        #expect(error?.reason == .service(.preconditionFailed))
        #expect(error?.statusCode == 412)
        #expect(transport.requests.count == 1)
    }

    @Test func anUnchangedRecord_isNotModified() async throws {
        // Given a GET on condition that the record changed, answered 304 with no body
        let transport = ScriptedTransport(
            .respond(TransportResponse(statusCode: 304, headers: ["ETag": #""1434641515332""#], body: Data())))
        // When it is sent
        let error = await #expect(throws: WebServiceError.self) {
            try await client(transport).send(TaskService(condition: .ifNoneMatch(#""1434641515332""#)))
        }
        // Then the header went out as given and the answer is .notModified
        #expect(error?.reason == .service(.notModified))
        #expect(error?.statusCode == 304)
        let request = try #require(transport.requests.first)
        #expect(request.value(forHTTPHeaderField: "If-None-Match") == #""1434641515332""#)
        #expect(request.value(forHTTPHeaderField: "If-Match") == nil)
        #expect(request.httpMethod == "GET")
    }

    @Test func withoutACondition_neitherHeaderIsSent() async throws {
        let transport = ScriptedTransport(.json(Self.record))
        _ = try await client(transport).send(TaskService())
        let request = try #require(transport.requests.first)
        #expect(request.value(forHTTPHeaderField: "If-Match") == nil)
        #expect(request.value(forHTTPHeaderField: "If-None-Match") == nil)
    }

    @Test func theConditionWinsOverTheClientsHeader_andConfigureWinsOverTheCondition() async throws {
        // Given a client header of the same name
        let transport = ScriptedTransport(.json(["data": ["title": "x"]]))
        let kinto = client(transport, headers: ["If-Match": #""client""#])
        // When one rename gives only its condition and another also sets the header in configure(_:)
        _ = try await kinto.send(RenameService(title: "x", etag: #""service""#))
        _ = try await kinto.send(RenameService(title: "x", etag: #""service""#, overridingHeader: ("If-Match", #""configured""#)))
        // Then the order is client, condition, configure
        #expect(transport.requests.map { $0.value(forHTTPHeaderField: "If-Match") } == [#""service""#, #""configured""#])
    }

    @Test func etag_isTheFirstETagHeader_asSent_orNil() {
        func reply(_ headers: ResponseHeaders) -> RawResponse { RawResponse(statusCode: 200, headers: headers, body: Data("{}".utf8)) }
        #expect(reply(["etag": #"W/"a""#]).etag == #"W/"a""#)
        #expect(reply(["ETag": #""a""#, "ETag": #""b""#]).etag == #""a""#)
        #expect(reply(["Content-Type": "application/json"]).etag == nil)
    }
}

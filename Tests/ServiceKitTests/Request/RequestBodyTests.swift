import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceKit
import ServiceKitTesting
import Testing

/// A body a service gives whole: an `Encodable` value, encoded by the client's encoder or the service's own,
/// or bytes with their type; compared as the bytes and headers sent.
@Suite struct RequestBodyTests {
    static let due = Date(timeIntervalSince1970: 1_384_680_600)  // 2013-11-17 09:30:00 UTC

    struct NewTask: Encodable, Sendable {
        var title: String
        var isDone: Bool
        var due: Date?
        var path: String
    }

    /// A service whose parameter encoding is left to the default, so that a body moves the parameters to the query.
    struct BodyService: WebService {
        var method: HTTPMethod = .post
        var parameters: Parameters = [:]
        var files: [MultipartFile] = []
        var body: RequestBody?
        var contentType: String?
        var endpoint: String { "/tasks" }

        func configure(_ request: inout URLRequest) {
            if let contentType {
                request.setValue(contentType, forHTTPHeaderField: "Content-Type")
            }
        }

        func response(from json: JSON) throws -> JSONValue { json.value ?? [:] }
    }

    /// A service that gives a body and also names an encoding for its parameters.
    struct ExplicitEncodingService: WebService {
        var parameterEncoding: ParameterEncoding
        var body: RequestBody?
        var method: HTTPMethod { .post }
        var endpoint: String { "/tasks" }
        func response(from json: JSON) throws -> JSONValue { json.value ?? [:] }
    }

    /// The request that reached the transport.
    func sent<Service: WebService>(_ service: Service, configuration: WebServiceClient.Configuration = .init()) async throws -> URLRequest {
        let transport = ScriptedTransport(.json(["id": "t1"], status: 201))
        let client = WebServiceClient(baseURL: URL(string: "https://kinto.example/v1")!, configuration: configuration, transport: transport)
        _ = try await client.send(service)
        #expect(transport.requests.count == 1)
        return try #require(transport.requests.first)
    }

    /// The error `service` fails with, and how many requests reached the transport.
    func refusal<Service: WebService>(_ service: Service) async -> (WebServiceError?, sent: Int) {
        let transport = ScriptedTransport(.json(["id": "t1"], status: 201))
        let client = WebServiceClient(
            baseURL: URL(string: "https://kinto.example/v1")!, configuration: .init(retryPolicy: RetryPolicy(jitter: 0), clock: VirtualClock()),
            transport: transport)
        let error = await #expect(throws: WebServiceError.self) { try await client.send(service) }
        return (error, transport.requests.count)
    }

    @Test func encodableBody_withTheDefaultEncoder_isISODatesSortedKeysAndPlainSlashes() async throws {
        // Given an Encodable body and a client with the default configuration
        let task = NewTask(title: "Buy milk", isDone: false, due: Self.due, path: "lists/home")
        // When it is sent
        let request = try await sent(BodyService(body: .json(task)))
        // Then the body is exactly these bytes, typed as JSON, on a POST
        #expect(request.httpBody == Data(#"{"due":"2013-11-17T09:30:00Z","isDone":false,"path":"lists/home","title":"Buy milk"}"#.utf8))
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(request.httpMethod == "POST")
    }

    @Test func encodableBody_usesTheClientsEncoder() async throws {
        // Given a client whose encoder writes snake_case keys and dates in seconds
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = .sortedKeys
        let task = NewTask(title: "Buy milk", isDone: true, due: Self.due, path: "a/b")
        // When a body names no encoder of its own
        let request = try await sent(BodyService(body: .json(task)), configuration: .init(jsonEncoder: encoder))
        // Then the client's encoder wrote it
        #expect(request.httpBody == Data(#"{"due":1384680600,"is_done":true,"path":"a\/b","title":"Buy milk"}"#.utf8))
    }

    @Test func encodableBody_withItsOwnEncoder_winsOverTheClients() async throws {
        // Given a client encoder and a body that names another one
        let clientEncoder = JSONEncoder()
        clientEncoder.keyEncodingStrategy = .convertToSnakeCase
        clientEncoder.outputFormatting = .sortedKeys
        let ownEncoder = JSONEncoder()
        ownEncoder.dateEncodingStrategy = .millisecondsSince1970
        ownEncoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let task = NewTask(title: "x", isDone: false, due: Self.due, path: "a/b")
        // When it is sent
        let request = try await sent(BodyService(body: .json(task, encoder: ownEncoder)), configuration: .init(jsonEncoder: clientEncoder))
        // Then the body's own encoder wrote it: camelCase keys, milliseconds
        #expect(request.httpBody == Data(#"{"due":1384680600000,"isDone":false,"path":"a/b","title":"x"}"#.utf8))
    }

    @Test func dataBody_isSentByteForByte_withItsType() async throws {
        // Given bytes that are not UTF-8 text
        let bytes = Data([0x00, 0xFF, 0xFE, 0x0D, 0x0A, 0x7B])
        // When they are the body
        let request = try await sent(BodyService(body: .data(bytes, contentType: "application/octet-stream")))
        // Then exactly they are sent, with their type
        #expect(request.httpBody == bytes)
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/octet-stream")
    }

    @Test func configure_hasTheLastWordOnTheContentType() async throws {
        // Given a JSON merge patch: an Encodable body whose media type the service sets in configure(_:)
        let service = BodyService(method: .patch, body: .json(["title": "Buy oat milk"]), contentType: "application/merge-patch+json")
        // When it is sent
        let request = try await sent(service)
        // Then the body is the value and the type is the service's
        #expect(request.httpBody == Data(#"{"title":"Buy oat milk"}"#.utf8))
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/merge-patch+json")
        #expect(request.httpMethod == "PATCH")
    }

    @Test func withABody_parametersAndCommonParameters_goToTheQuery() async throws {
        // Given a POST with a body, a parameter of its own and a client's common parameter
        let service = BodyService(parameters: ["dry_run": true], body: .data(Data("a,b\n".utf8), contentType: "text/csv"))
        // When it is sent
        let request = try await sent(service, configuration: .init(commonParameters: { ["token": "t 1"] }))
        // Then the parameters are in the URL and the body is untouched
        #expect(request.url?.absoluteString == "https://kinto.example/v1/tasks?dry_run=true&token=t%201")
        #expect(request.httpBody == Data("a,b\n".utf8))
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "text/csv")
    }

    @Test func withoutABody_aPOSTStillSendsItsParametersAsJSON() async throws {
        // Given a POST service that gives no body (the default)
        let request = try await sent(BodyService(parameters: ["title": "x"]))
        // Then its parameters are the JSON body, as before
        #expect(request.httpBody == Data(#"{"title":"x"}"#.utf8))
        #expect(request.url?.query == nil)
    }

    @Test(arguments: [HTTPMethod.get, .head])
    func aBodyOnAGETOrHEAD_isAnInvalidRequest(method: HTTPMethod) async {
        let (error, sent) = await refusal(BodyService(method: method, body: .json(["q": "x"])))
        #expect(
            error?.reason
                == .service(.invalidRequest("A \(method.rawValue) request has no body, but the service gives one; send its values as parameters in the query."))
        )
        #expect(sent == 0)
    }

    @Test(arguments: [ParameterEncoding.json, .form, .multipart])
    func aBodyNextToParametersEncodedAsABody_isAnInvalidRequest(encoding: ParameterEncoding) async {
        // Given a service that gives a body and says its parameters are a body too
        let (error, sent) = await refusal(ExplicitEncodingService(parameterEncoding: encoding, body: .json(["title": "x"])))
        // Then neither is dropped in silence: the call is refused, naming the encoding
        let name = ["json": ".json", "form": ".form", "multipart": ".multipart"]["\(encoding)"] ?? "?"
        #expect(
            error?.reason
                == .service(
                    .invalidRequest(
                        "The service gives a body and also encodes its parameters as \(name), but a request has one body; encode the parameters as .query, or put them in the body."
                    )))
        #expect(sent == 0)
    }

    @Test func aBodyNextToFiles_isAnInvalidRequest() async {
        let photo = MultipartFile(name: "photo", filename: "p.jpg", contentType: "image/jpeg", data: Data([0xFF]))
        let (error, sent) = await refusal(BodyService(files: [photo], body: .json(["title": "x"])))
        #expect(
            error?.reason == .service(.invalidRequest("The service has files, which only a .multipart body carries, but encodes its parameters as .query.")))
        #expect(sent == 0)
    }

    @Test func aValueTheEncoderRefuses_isAnInvalidRequestNamingWhere_andKeepsTheEncodingError() async {
        // Given a body holding a number JSON cannot write
        struct Reading: Encodable, Sendable { var values: [Double] }
        // When it is sent
        let (error, sent) = await refusal(BodyService(body: .json(Reading(values: [1, .nan]))))
        // Then the call fails before sending, saying where, with the encoder's error underneath
        #expect(error?.reason == .service(.invalidRequest("The body cannot be encoded as JSON: its value at $.values[1] (nan) has no JSON form.")))
        #expect(error?.underlyingError is EncodingError)
        #expect(sent == 0)
    }

    @Test func anErrorTheValueThrowsItself_isAnInvalidRequestQuotingIt() async {
        // Given a body whose own encode(to:) refuses
        struct Refusal: Error, CustomStringConvertible { var description: String { "no draft may leave the device" } }
        struct Draft: Encodable, Sendable {
            func encode(to encoder: any Encoder) throws { throw Refusal() }
        }
        // When it is sent
        let (error, sent) = await refusal(BodyService(body: .json(Draft())))
        // Then its error is quoted in the sentence and kept underneath
        #expect(error?.reason == .service(.invalidRequest("The body cannot be encoded as JSON: no draft may leave the device.")))
        #expect(error?.underlyingError is Refusal)
        #expect(sent == 0)
    }

    @Test func theDefaultEncoding_followsTheBody() {
        #expect(BodyService(body: .json(["a": 1])).parameterEncoding == .query)
        #expect(BodyService().parameterEncoding == .json)
        #expect(BodyService(method: .get).parameterEncoding == .query)
        #expect(BodyService().body == nil)
    }
}

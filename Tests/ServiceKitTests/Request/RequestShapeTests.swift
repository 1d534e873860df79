import Foundation
import ServiceKit
import ServiceKitTesting
import Testing

/// Requests that cannot be sent as their service describes them: refused with one sentence, before anything
/// reaches the transport, never sent as something else.
@Suite struct RequestShapeTests {
    /// Sends `service` through a client whose policy would retry anything retryable, and returns the error
    /// and how many requests reached the transport.
    func refusal(of service: EchoService) async -> (WebServiceError?, sent: Int) {
        let transport = ScriptedTransport(.json(["ok": true]))
        let client = makeClient(transport, retryPolicy: RetryPolicy(maxAttempts: 3, jitter: 0))
        let error = await #expect(throws: WebServiceError.self) { try await client.send(service) }
        return (error, transport.requests.count)
    }

    @Test(arguments: [
        (
            HTTPMethod.get, ParameterEncoding.json,
            "A GET request has no body, but the service encodes its parameters as .json; encode them as .query."
        ),
        (.head, .form, "A HEAD request has no body, but the service encodes its parameters as .form; encode them as .query."),
        (.get, .multipart, "A GET request has no body, but the service encodes its parameters as .multipart; encode them as .query."),
        ("get", .json, "A get request has no body, but the service encodes its parameters as .json; encode them as .query."),
    ])
    func bodyOnAMethodWithout_isAnInvalidRequest_andNothingIsSent(method: HTTPMethod, encoding: ParameterEncoding, sentence: String) async {
        // Given a GET or HEAD whose parameters would be a body
        let service = EchoService(method: method, parameters: ["q": "swift"], parameterEncoding: encoding)
        // When it is sent
        let (error, sent) = await refusal(of: service)
        // Then it is refused with the sentence, as a service-level error without a status, and nothing is sent
        #expect(error?.reason == .service(.invalidRequest(sentence)))
        #expect(error?.family == .service)
        #expect(error?.statusCode == nil)
        #expect(sent == 0)
    }

    @Test func bodyOnAMethodWithout_isRefusedEvenWithoutParameters() async {
        // Given a GET that declares a JSON body but whose parameters are all nil today
        let missing: String? = nil
        let service = EchoService(method: .get, parameters: ["q": missing], parameterEncoding: .json)
        // Then the declaration alone is refused: it does not depend on which optionals happen to be set
        let (error, sent) = await refusal(of: service)
        #expect(
            error?.reason
                == .service(.invalidRequest("A GET request has no body, but the service encodes its parameters as .json; encode them as .query.")))
        #expect(sent == 0)
    }

    @Test(arguments: [ParameterEncoding.json, .form])
    func filesOutsideAMultipartBody_areAnInvalidRequest_notDropped(encoding: ParameterEncoding) async {
        // Given a POST with a file whose parameters are not multipart
        let photo = MultipartFile(name: "photo", filename: "p.jpg", contentType: "image/jpeg", data: Data([0xFF, 0xD8]))
        let service = EchoService(method: .post, parameters: ["title": "Beach"], parameterEncoding: encoding, files: [photo])
        // When it is sent
        let (error, sent) = await refusal(of: service)
        // Then it is refused, naming the encoding
        let name = encoding == .json ? ".json" : ".form"
        #expect(
            error?.reason == .service(.invalidRequest("The service has files, which only a .multipart body carries, but encodes its parameters as \(name)."))
        )
        #expect(sent == 0)
    }

    @Test(arguments: [(HTTPMethod.get, ParameterEncoding.query), (.delete, .query), (.post, .json), (.put, .form), (.patch, .json), (.post, .multipart)])
    func theUsualShapes_areSent(method: HTTPMethod, encoding: ParameterEncoding) async throws {
        // Given a service of a shape that was always sent
        let transport = ScriptedTransport(.json(["ok": true]))
        let service = EchoService(method: method, parameters: ["q": "swift"], parameterEncoding: encoding)
        // When it is sent, then it reaches the transport with its method
        _ = try await makeClient(transport).send(service)
        #expect(transport.requests.map(\.httpMethod) == [method.rawValue])
    }
}

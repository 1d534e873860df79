import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceKit
import ServiceKitTesting
import Testing

/// Parameters inside parameters: objects in a JSON body, at any depth and inside arrays, compared as the
/// bytes sent; refused with a sentence where no object can travel.
@Suite struct NestedParametersTests {
    static let signup = Date(timeIntervalSince1970: 1_384_680_600)  // 2013-11-17 09:30:00 UTC

    /// The body `service` sends, as text, and the request it went in.
    func sentBody(_ service: EchoService) async throws -> (body: String, request: URLRequest) {
        let transport = ScriptedTransport(.json(["ok": true]))
        _ = try await makeClient(transport).send(service)
        let request = try #require(transport.requests.first)
        return (String(decoding: try #require(request.httpBody), as: UTF8.self), request)
    }

    @Test func kintoRecord_isAnObjectInsideTheBody() async throws {
        // Given Kinto's create-a-record body, {"data": {...}}, with a nil optional inside
        let note: String? = nil
        let service = EchoService(
            endpoint: "/buckets/default/collections/tasks/records", method: .post,
            parameters: ["data": ["title": "Buy milk", "done": false, "note": note] as Parameters], parameterEncoding: .json)
        // When it is sent
        let (body, request) = try await sentBody(service)
        // Then the body is exactly the nested object, the nil gone, keys sorted
        #expect(body == #"{"data":{"done":false,"title":"Buy milk"}}"#)
        #expect(request.httpMethod == "POST")
        #expect(request.url?.absoluteString == "https://api.example.test/v1/buckets/default/collections/tasks/records")
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    @Test func objectsNestDeep_andSitInArrays_withTheServiceFormatting() async throws {
        // Given a Kinto batch: an array of objects, each with an object inside, a date and a boolean
        let first: Parameters = ["method": "POST", "path": "/records", "body": ["data": ["title": "a", "due": Self.signup] as Parameters] as Parameters]
        let second: Parameters = ["method": "DELETE", "path": "/records/r1"]
        let service = EchoService(
            endpoint: "/batch", method: .post, parameters: ["requests": [first, second], "defaults": ["safe": true] as Parameters],
            parameterEncoding: .json, parameterFormatting: ParameterFormatting(dates: .secondsSince1970, booleans: .oneZero))
        // When it is sent
        let (body, _) = try await sentBody(service)
        // Then every level is written, dates in the service's format, booleans as JSON booleans
        #expect(
            body
                == #"{"defaults":{"safe":true},"requests":[{"body":{"data":{"due":1384680600,"title":"a"}},"method":"POST","path":"/records"},"#
                + #"{"method":"DELETE","path":"/records/r1"}]}"#)
    }

    @Test func anEmptyObject_isSentAsAnEmptyObject() async throws {
        let (body, _) = try await sentBody(EchoService(method: .put, parameters: ["data": Parameters()], parameterEncoding: .json))
        #expect(body == #"{"data":{}}"#)
    }

    @Test func parametersAsAValue_readBackAsAnObject() {
        // Given parameters holding parameters
        let inner: Parameters = ["title": "Buy milk"]
        let outer: Parameters = ["data": inner]
        // Then the subscript reads the object back, equal to what was put in
        #expect(outer["data"] == .object(inner))
        #expect(inner.parameterValue == .object(inner))
    }

    @Test(arguments: [
        (
            HTTPMethod.get, ParameterEncoding.query,
            #"The parameter "data" holds an object, which only a .json body carries, but the service encodes its parameters as .query."#
        ),
        (.post, .form, #"The parameter "data" holds an object, which only a .json body carries, but the service encodes its parameters as .form."#),
        (
            .post, .multipart,
            #"The parameter "data" holds an object, which only a .json body carries, but the service encodes its parameters as .multipart."#
        ),
    ])
    func anObjectOutsideAJSONBody_isAnInvalidRequest_andNothingIsSent(method: HTTPMethod, encoding: ParameterEncoding, sentence: String) async {
        // Given an object parameter in an encoding that has no way to write one
        let transport = ScriptedTransport(.json(["ok": true]))
        let service = EchoService(method: method, parameters: ["site": "so", "data": ["title": "x"] as Parameters], parameterEncoding: encoding)
        // When it is sent
        let error = await #expect(throws: WebServiceError.self) { try await makeClient(transport).send(service) }
        // Then it is refused, naming the parameter and the encoding, and nothing reaches the transport
        #expect(error?.reason == .service(.invalidRequest(sentence)))
        #expect(transport.requests.isEmpty)
    }

    @Test func anObjectInsideAnArray_inAQuery_isRefusedToo() async {
        let transport = ScriptedTransport(.json(["ok": true]))
        let service = EchoService(parameters: ["ids": [ParameterValue.integer(1), .object(["a": 1])]])
        let error = await #expect(throws: WebServiceError.self) { try await makeClient(transport).send(service) }
        #expect(
            error?.reason
                == .service(
                    .invalidRequest(#"The parameter "ids" holds an object, which only a .json body carries, but the service encodes its parameters as .query."#)
                ))
        #expect(transport.requests.isEmpty)
    }
}

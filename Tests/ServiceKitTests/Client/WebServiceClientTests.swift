import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceKit
import ExampleServices
import ServiceKitTesting
import ServiceReplayShared
import Testing

@Suite struct WebServiceClientTests {
    struct Friend: Decodable, Equatable, Sendable {
        let id: String
        let joined: Date
    }

    struct DecodableService: WebService {
        typealias Response = [Friend]
        var endpoint: String { "/friends" }
        var responseDateFormat: DateFormat { .secondsSince1970 }
    }

    struct OwnDecodingService: WebService {
        var endpoint: String { "/own" }
        func response(from json: JSON) throws -> Friend {
            try JSONDecoder().decode(Friend.self, from: json.value?.encoded() ?? Data())
        }
    }

    struct ThrowingService: WebService {
        struct Oops: Error {}
        var endpoint: String { "/oops" }
        func response(from json: JSON) throws -> Int { throw Oops() }
    }

    struct LenientStatusService: WebService {
        var endpoint: String { "/x" }
        func serviceError(in reply: RawResponse) -> WebServiceError.Service? { nil }
        func response(from json: JSON) throws -> Int { 1 }
    }

    @Test func send_success_returnsMappedResponse() async throws {
        let transport = ScriptedTransport(.json(["ok": true, "n": 2]))
        let value = try await makeClient(transport).send(EchoService())
        #expect(value == ["ok": true, "n": 2])
    }

    @Test func send_decodableResponse_usesTheServiceDateFormat() async throws {
        let transport = ScriptedTransport(.json([["id": 17, "joined": 1_384_680_600]]))
        let friends = try await makeClient(transport).send(DecodableService())
        #expect(friends == [Friend(id: "17", joined: Date(timeIntervalSince1970: 1_384_680_600))])
    }

    @Test func send_transportFailure_isNetworkLevelWithUnderlyingError() async {
        // Given a transport that times out
        let transport = ScriptedTransport(.fail(URLError(.timedOut)))
        // When a call is sent
        let error = await #expect(throws: WebServiceError.self) { try await makeClient(transport).send(EchoService()) }
        // Then it is the network-level case, keeping the URLError
        #expect(error?.reason == .network(.timedOut))
        #expect((error?.underlyingError as? URLError)?.code == .timedOut)
        #expect(error?.statusCode == nil)
    }

    @Test func send_errorStatus_isServiceLevelWithServerMessage() async {
        let transport = ScriptedTransport(.json(["message": "Not Found"], status: 404))
        let error = await #expect(throws: WebServiceError.self) { try await makeClient(transport).send(EchoService()) }
        #expect(error?.reason == .service(.httpStatus(404, message: "Not Found")))
        #expect(error?.statusCode == 404)
    }

    @Test func send_errorStatusIgnoredByHook_isStillAnError() async {
        let transport = ScriptedTransport(.json(["anything": 1], status: 500))
        let error = await #expect(throws: WebServiceError.self) {
            try await makeClient(transport).send(LenientStatusService())
        }
        #expect(error?.reason == .service(.httpStatus(500, message: nil)))
    }

    @Test func send_errorPayloadIn200_isServiceLevel() async {
        let transport = ScriptedTransport(.json(["error": "maintenance", "message": "Back soon."]))
        let error = await #expect(throws: WebServiceError.self) { try await makeClient(transport).send(EchoService()) }
        #expect(error?.reason == .service(.errorPayload(code: "maintenance", message: "Back soon.")))
    }

    @Test func send_htmlInsteadOfJSON_isWrongContentType() async {
        let transport = ScriptedTransport(.respond(.text("<html></html>", contentType: "text/html; charset=utf-8")))
        let error = await #expect(throws: WebServiceError.self) { try await makeClient(transport).send(EchoService()) }
        #expect(error?.reason == .service(.wrongContentType("text/html")))
    }

    @Test(arguments: ["", "{\"a\":", "null"])
    func send_emptyOrMalformedJSON_isUndecodableBody(body: String) async {
        let transport = ScriptedTransport(.respond(.text(body, contentType: "application/json")))
        let error = await #expect(throws: WebServiceError.self) { try await makeClient(transport).send(EchoService()) }
        #expect(error?.reason == .service(.undecodableBody))
    }

    @Test func send_serviceOwnDecodingError_becomesMissingFieldWithPath() async {
        // Given a service that decodes with JSONDecoder itself and a payload without "joined"
        let transport = ScriptedTransport(.json(["id": "17"]))
        // When it is sent
        let error = await #expect(throws: WebServiceError.self) {
            try await makeClient(transport).send(OwnDecodingService())
        }
        // Then no DecodingError escapes: it is a missing field, with the DecodingError underneath
        #expect(error?.reason == .service(.missingField("$.joined")))
        #expect(error?.underlyingError is DecodingError)
    }

    @Test func send_mappingThrowsOtherError_isUndecodableBody() async {
        let transport = ScriptedTransport(.json([:]))
        let error = await #expect(throws: WebServiceError.self) { try await makeClient(transport).send(ThrowingService()) }
        #expect(error?.reason == .service(.undecodableBody))
        #expect(error?.underlyingError is ThrowingService.Oops)
    }

    @Test func send_uploadProgress_isForwardedInOrder() async throws {
        // Given a transport reporting three progress steps
        let steps = [
            UploadProgress(bytesSent: 10, totalBytes: 30), UploadProgress(bytesSent: 20, totalBytes: 30),
            UploadProgress(bytesSent: 30, totalBytes: 30),
        ]
        let transport = ScriptedTransport(.respond(.json(["id": "p"]), progress: steps))
        let seen = Lock<[Double]>([])
        // When a call with a body is sent with a progress handler
        _ = try await makeClient(transport).send(
            EchoService(method: .post, parameters: ["a": 1], parameterEncoding: .json),
            uploadProgress: { progress in
                seen.withLock { $0.append(progress.fractionCompleted) }
            })
        // Then every report arrives, in order
        #expect(seen.withLock { $0 } == [1.0 / 3, 2.0 / 3, 1])
    }

    @Test func uploadProgress_unknownTotal_isZeroFraction() {
        #expect(UploadProgress(bytesSent: 5, totalBytes: -1).fractionCompleted == 0)
        #expect(UploadProgress(bytesSent: 50, totalBytes: 10).fractionCompleted == 1)
    }

    @Test func completionHandler_deliversResult() async throws {
        let transport = ScriptedTransport(.json(["a": 1]))
        let client = makeClient(transport)
        let result: Result<JSONValue, WebServiceError> = await withCheckedContinuation { continuation in
            client.send(EchoService()) { continuation.resume(returning: $0) }
        }
        #expect(try result.get() == ["a": 1])
    }

    @Test func responseReceivedAt_comesFromTheClientClock() async throws {
        // Given a 429 whose Retry-After is an HTTP-date 30 s after the virtual now
        let clock = VirtualClock(now: Date(timeIntervalSince1970: 784_111_777))  // 08:49:37 GMT
        let transport = ScriptedTransport(.json([:], status: 429, headers: [("Retry-After", "Sun, 06 Nov 1994 08:50:07 GMT")]))
        // When it is sent without retries
        let error = await #expect(throws: WebServiceError.self) {
            try await makeClient(transport, clock: clock).send(EchoService())
        }
        // Then the delay is measured from the client's clock
        #expect(error?.reason == .service(.rateLimited(retryAfter: 30)))
    }
}

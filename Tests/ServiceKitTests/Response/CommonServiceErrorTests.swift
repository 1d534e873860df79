import Foundation
import ServiceKit
import Testing

@Suite struct CommonServiceErrorTests {
    static let cases: [(Int, String, [(String, String)], WebServiceError.Service?)] = [
        (429, #"{"message": "slow down"}"#, [("Retry-After", "2")], .rateLimited(retryAfter: 2)),
        (429, "", [], .rateLimited(retryAfter: nil)),
        (
            412, #"{"code": 412, "errno": 114, "error": "Precondition Failed", "message": "Resource was modified meanwhile"}"#, [],
            .preconditionFailed
        ),
        (412, "", [], .preconditionFailed),
        (304, "", [("ETag", #""1434641515332""#)], .notModified),
        (409, #"{"message": "conflict"}"#, [], .httpStatus(409, message: "conflict")),
        (
            404, #"{"message": "Not Found", "documentation_url": "https://docs.github.com"}"#, [],
            .httpStatus(404, message: "Not Found")
        ),
        (
            401, #"{"error": "invalid_credentials", "message": "The username or password is incorrect."}"#, [],
            .httpStatus(401, message: "The username or password is incorrect.")
        ),
        (
            400, #"{"error_id": 400, "error_message": "site is required", "error_name": "bad_parameter"}"#, [],
            .httpStatus(400, message: "site is required")
        ),
        (
            400, #"{"error": "invalid_grant", "error_description": "Code expired"}"#, [],
            .httpStatus(400, message: "Code expired")
        ),
        (422, #"{"error": {"code": "x", "message": "Nested message"}}"#, [], .httpStatus(422, message: "Nested message")),
        (403, #"{"error": "forbidden"}"#, [], .httpStatus(403, message: "forbidden")),
        (500, "<html>Internal Server Error</html>", [("Content-Type", "text/html")], .httpStatus(500, message: nil)),
        (503, "", [("Retry-After", "5")], .httpStatus(503, message: nil)),
        (
            200, #"{"error_id": 502, "error_name": "throttle_violation", "error_message": "too many requests"}"#, [],
            .errorPayload(code: "throttle_violation", message: "too many requests")
        ),
        (200, #"{"error_id": 404, "error_name": "no_method"}"#, [], .errorPayload(code: "no_method", message: nil)),
        (200, #"{"error_id": 500}"#, [], .errorPayload(code: "500", message: nil)),
        (
            200, #"{"error": "invalid_credentials", "message": "Bad password."}"#, [],
            .errorPayload(code: "invalid_credentials", message: "Bad password.")
        ),
        (200, #"{"error": "Something broke"}"#, [], .errorPayload(code: nil, message: "Something broke")),
        (
            200, #"{"error": {"type": "quota", "message": "Over quota"}}"#, [],
            .errorPayload(code: "quota", message: "Over quota")
        ),
        (200, #"{"error": true, "message": "Try later"}"#, [], .errorPayload(code: nil, message: "Try later")),
        (200, #"{"error": false, "items": []}"#, [], nil),
        (200, #"{"currentPage": 1, "list": [], "message": "No feeds found."}"#, [], nil),
        (200, #"[{"error": "in an element is data"}]"#, [], nil),
        (201, #"{"id": "p_981"}"#, [], nil),
    ]

    @Test(arguments: cases)
    func commonServiceError_recognisesTheCommonShapes(
        status: Int, body: String, headers: [(String, String)],
        expected: WebServiceError.Service?
    ) {
        // Given a response
        let fields =
            [ResponseHeaders.Field(name: "Content-Type", value: "application/json")]
            + headers.map { ResponseHeaders.Field(name: $0.0, value: $0.1) }
        let reply = RawResponse(statusCode: status, headers: ResponseHeaders(fields), body: Data(body.utf8))
        // Then the default detection names the expected failure, or none
        #expect(reply.commonServiceError == expected)
    }
}

import Foundation
import ServiceKit
import ServiceKitTesting

extension TransportResponse {
    /// A JSON response with `Content-Type: application/json; charset=utf-8` and any extra headers.
    static func json(_ value: JSONValue, status: Int = 200, headers: [(String, String)] = []) -> TransportResponse {
        let fields =
            [ResponseHeaders.Field(name: "Content-Type", value: "application/json; charset=utf-8")]
            + headers.map { ResponseHeaders.Field(name: $0.0, value: $0.1) }
        return TransportResponse(statusCode: status, headers: ResponseHeaders(fields), body: value.encoded())
    }

    /// A response with a text body of the given content type.
    static func text(_ text: String, status: Int = 200, contentType: String = "text/plain") -> TransportResponse {
        TransportResponse(statusCode: status, headers: ["Content-Type": contentType], body: Data(text.utf8))
    }
}

extension ScriptedTransport.Step {
    /// Responds with JSON.
    static func json(_ value: JSONValue, status: Int = 200, headers: [(String, String)] = []) -> Self {
        .respond(.json(value, status: status, headers: headers))
    }
}

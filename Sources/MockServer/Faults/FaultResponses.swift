import Foundation

/// The responses and raw byte sequences that HTTP-level and truncating faults send.
enum FaultResponses {
    /// A response with `code`. An empty `body` becomes `{"error": REASON, "status": CODE}` as JSON;
    /// 503 and 429 carry `Retry-After` (``Fault/defaultRetryAfter`` unless given); headers given win.
    static func status(_ code: Int, retryAfter: String?, headers: HTTPHeaders, body: Data) -> HTTPResponse {
        var response = HTTPResponse(status: code, headers: headers, body: body)
        if body.isEmpty {
            let reason = HTTPResponse.reasonPhrase(for: code)
            response.body = Data(#"{"error":"\#(reason)","status":\#(code)}"#.utf8)
            if !response.headers.contains("Content-Type") {
                response.headers.add(name: "Content-Type", value: "application/json")
            }
        }
        if let value = retryAfter ?? ((code == 503 || code == 429) ? Fault.defaultRetryAfter : nil), !response.headers.contains("Retry-After") {
            response.headers.add(name: "Retry-After", value: value)
        }
        response.headers.set(name: "Content-Length", value: String(response.body.count))
        return response
    }

    /// What a `graphql-error` fault sends: `200 OK` with a GraphQL error response whose `extensions.code` is
    /// `code` (a GraphQL name, so it needs no escaping), and the `data` of `answer` (the recorded answer) when it
    /// is a JSON object holding some, else `null`.
    static func graphQLError(code: String, beside answer: HTTPResponse?) -> HTTPResponse {
        var data = CassetteJSON.null
        if let answer, case .object(let members)? = try? CassetteJSON(parsing: answer.body), let recorded = members["data"] { data = recorded }
        let error: CassetteJSON = [
            "message": .string("MockServer injected a GraphQL error: \(code)"), "extensions": ["code": .string(code)],
        ]
        let body = CassetteJSON.object(["data": data, "errors": [error]]).serialized()
        return HTTPResponse(status: 200, headers: ["Content-Type": "application/json", "Content-Length": String(body.count)], body: body)
    }

    /// What a `service-error` fault sends when it has no template (a server refuses such a rule at start, so
    /// only an injector built without cassettes meets this): a 500 that says so.
    static func missingTemplate(_ name: String) -> HTTPResponse {
        status(
            500, retryAfter: nil, headers: ["X-MockServer-Fault": "missing-template"],
            body: Data(#"{"error":"mockserver: no cassette holds an error template named \#(name)"}"#.utf8))
    }

    /// `response` with `body` instead of its own and a matching `Content-Length`.
    static func replacingBody(of response: HTTPResponse, with body: Data) -> HTTPResponse {
        var changed = response
        changed.body = body
        changed.headers.set(name: "Content-Length", value: String(body.count))
        return changed
    }

    /// The first half of the body followed by bytes that are neither JSON nor UTF-8.
    static func corrupted(_ response: HTTPResponse) -> HTTPResponse {
        replacingBody(of: response, with: response.body.prefix(response.body.count / 2) + Data([0xFF, 0xFE]) + Data("}{".utf8))
    }

    /// The wire bytes of `response` cut at `point`; the head always promises more than is sent.
    static func truncated(_ response: HTTPResponse, at point: TruncationPoint) -> Data {
        let head = response.serializedHead
        let statusLineEnd = head.firstRange(of: Data("\r\n".utf8))?.lowerBound ?? head.endIndex
        switch point {
        case .statusLine:
            // "HTTP/1.1 2": the version and the first digit of the status, never a whole line.
            return head.prefix(min(10, max(1, statusLineEnd - head.startIndex - 1)))
        case .headers:
            // The status line and half of the header lines, never the blank line that ends them.
            let headerBytes = head.count - (statusLineEnd - head.startIndex) - 4
            return head.prefix(statusLineEnd - head.startIndex + 2 + max(1, headerBytes / 2))
        case .event:
            return truncated(response, at: .body(bytes: 0))
        case .body(let bytes):
            var promising = response
            if response.body.isEmpty {
                promising.headers.set(name: "Content-Length", value: "1")
                return promising.serializedHead
            }
            return response.serializedHead + response.body.prefix(min(bytes, response.body.count - 1))
        }
    }

    /// An error template as one server-sent event: a `text/event-stream` template's body as it is (it holds
    /// its own event syntax), anything else as one `data:` line per line of its body.
    static func errorEvent(from template: HTTPResponse) -> Data {
        if MediaType(template.headers["Content-Type"]).isEventStream { return template.body }
        var text = ""
        for line in String(decoding: template.body, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) {
            text += "data: \(line)\n"
        }
        return Data((text + "\n").utf8)
    }

    /// A chunked answer whose first chunk is fine and whose second chunk-size line is not hexadecimal.
    static func malformedChunked(_ response: HTTPResponse) -> Data {
        var chunked = response
        chunked.headers.remove(name: "Content-Length")
        chunked.headers.set(name: "Transfer-Encoding", value: "chunked")
        var bytes = chunked.serializedHead
        // A first chunk of half the body (never of size 0, which would end the message properly).
        let first = response.body.prefix(response.body.count / 2)
        if !first.isEmpty {
            bytes += Data("\(String(first.count, radix: 16))\r\n".utf8) + first + Data("\r\n".utf8)
        }
        bytes += Data("zz-not-a-chunk-size\r\n".utf8)
        return bytes
    }
}

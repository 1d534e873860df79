extension Interaction {
    /// A hand-written interaction for the odd case a cassette lacks:
    /// `.stub("GET", "/users/42", status: 404, json: ["message": "Not Found"])`.
    ///
    /// A JSON body gets `Content-Type: application/json` unless `headers` names one. The request matches like a
    /// recorded one: `requestBody` (for example `.json([...])`) is compared when given, and `requestHeaders`
    /// are kept for headers a cassette chooses to match.
    public static func stub(
        _ method: String,
        _ target: String,
        status: Int = 200,
        json: CassetteJSON? = nil,
        headers: HTTPHeaders = [:],
        requestBody: RecordedBody = .empty,
        requestHeaders: HTTPHeaders = [:]
    ) -> Interaction {
        var responseHeaders = headers
        if json != nil, !responseHeaders.contains("Content-Type") {
            responseHeaders.add(name: "Content-Type", value: "application/json")
        }
        return Interaction(
            request: RecordedRequest(method: method, target: target, headers: requestHeaders, body: requestBody),
            response: RecordedResponse(status: status, headers: responseHeaders, body: json.map { .json($0) } ?? .empty)
        )
    }

    /// A hand-written interaction answering with text (`Content-Type` defaults to `text/plain; charset=utf-8`).
    public static func stub(
        _ method: String,
        _ target: String,
        status: Int = 200,
        text: String,
        contentType: String = "text/plain; charset=utf-8",
        headers: HTTPHeaders = [:]
    ) -> Interaction {
        var responseHeaders = headers
        if !responseHeaders.contains("Content-Type") { responseHeaders.add(name: "Content-Type", value: contentType) }
        return Interaction(
            request: RecordedRequest(method: method, target: target),
            response: RecordedResponse(status: status, headers: responseHeaders, body: text.isEmpty ? .empty : .text(text))
        )
    }

    /// A hand-written interaction that replays a transport failure (refused, reset, timeout).
    package static func failure(_ method: String, _ target: String, kind: TransportFailure.Kind, message: String? = nil) -> Interaction {
        Interaction(request: RecordedRequest(method: method, target: target), failure: TransportFailure(kind: kind, message: message))
    }
}

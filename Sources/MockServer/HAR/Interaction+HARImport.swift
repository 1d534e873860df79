import Foundation

/// One HAR entry as an interaction; see ``Cassette/importing(_:options:)`` for the rules.
extension Interaction {
    init(_ entry: HAREntry, index: Int, target: String, foreign: Bool) throws(MockServerError) {
        guard let started = CassetteDate.parse(entry.startedDateTime) else {
            throw MockServerError(code: .invalidField, entry: index, reason: "startedDateTime \"\(entry.startedDateTime)\" is not an ISO 8601 date")
        }
        let recordedAt = entry.undated == true ? nil : started
        let method = entry.request.method
        guard !method.isEmpty, method.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw MockServerError(code: .invalidField, entry: index, reason: "request.method \"\(method)\" is not an HTTP method")
        }
        let request = try RecordedRequest(entry.request, target: target, entry: index, foreign: foreign)
        let duration = entry.time >= 0 && entry.time < Double(Int32.max) ? Int(entry.time.rounded()) : nil
        if entry.response.status <= 0 {
            self.init(request: request, failure: TransportFailure(entry.response), recordedAt: recordedAt, durationMs: duration)
        } else {
            guard (100...999).contains(entry.response.status) else {
                throw MockServerError(
                    code: .invalidField, entry: index,
                    reason: "response.status \(entry.response.status) is not a status code from 100 to 999")
            }
            let response = try RecordedResponse(entry.response, entry: index, foreign: foreign)
            if response.status == 101 {
                let conversation = try RecordedWebSocket(
                    response: response, messages: entry.webSocketMessages ?? [], ending: entry.webSocketEnding, start: started, entry: index)
                self.init(request: request, outcome: .webSocket(conversation), recordedAt: recordedAt, durationMs: duration)
            } else {
                self.init(request: request, response: response, recordedAt: recordedAt, durationMs: duration)
            }
        }
    }
}

extension RecordedRequest {
    init(_ request: HARRequest, target: String, entry: Int, foreign: Bool) throws(MockServerError) {
        var data = Data()
        var mimeType: String?
        if let postData = request.postData {
            mimeType = postData.mimeType
            data = try HARBody.bytes(text: postData.text, encoding: postData.encoding, entry: entry, field: "request.postData")
            if data.isEmpty, let params = postData.params, !params.isEmpty {
                let type =
                    postData.mimeType.contains("/") ? postData.mimeType : request.headers.first { $0.name.caseInsensitiveEquals("Content-Type") }?.value ?? ""
                data = try HARBody.formBody(params, mimeType: type, entry: entry)
            }
        }
        let headers = try HARBody.headers(request.headers, body: data, entry: entry, field: "request", foreign: foreign)
        self.init(
            method: request.method, target: target, headers: headers,
            body: HARBody.recordedBody(data, mimeType: mimeType, headers: headers))
    }
}

extension RecordedResponse {
    init(_ response: HARResponse, entry: Int?, foreign: Bool) throws(MockServerError) {
        let data = try HARBody.bytes(text: response.content.text, encoding: response.content.encoding, entry: entry, field: "response.content")
        let headers = try HARBody.headers(response.headers, body: data, entry: entry ?? 0, field: "response", foreign: foreign)
        let body =
            if let stream = response.content.stream {
                RecordedBody.stream(try stream.recordedStream(body: data, entry: entry))
            } else {
                HARBody.recordedBody(data, mimeType: response.content.mimeType, headers: headers)
            }
        self.init(status: response.status, headers: headers, body: body)
    }
}

extension TransportFailure {
    /// A failed entry's kind: from the comment `failure: KIND` this package writes, else guessed from the
    /// browser's `_error` (`net::ERR_CONNECTION_REFUSED`, `net::ERR_TIMED_OUT`...); a reset otherwise.
    init(_ response: HARResponse) {
        let commented = response.comment.flatMap { comment -> Kind? in
            guard comment.hasPrefix("failure: ") else { return nil }
            return Kind(rawValue: String(comment.dropFirst("failure: ".count)))
        }
        let error = response.error?.uppercased() ?? ""
        let guessed: Kind =
            error.contains("REFUSED")
            ? .refused
            : error.contains("TIMED_OUT") || error.contains("TIMEOUT") || error.contains("TIMED OUT")
                ? .timeout
                : .reset
        self.init(kind: commented ?? guessed, message: response.error)
    }
}

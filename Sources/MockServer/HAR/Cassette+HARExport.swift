import Foundation

extension Cassette {
    /// The cassette as a HAR 1.2 archive, one entry per interaction in order.
    ///
    /// Each entry's URL is ``upstream`` followed by the request's target; headers keep their order and
    /// repeats; bodies go to `postData.text` and `content.text` (base64 with `encoding` for binary bodies),
    /// and a stream's parts, offsets and ending to `content._stream` as well; `recordedAt` becomes
    /// `startedDateTime` (when unknown: the cassette's date or the Unix epoch, since HAR requires one, marked `_undated`) and `durationMs` becomes `time` (-1 when unknown). A transport failure is an entry
    /// with status 0, the comment `failure: KIND` and the message in `_error`, as browsers write failed
    /// requests. What HAR has no place for (name, origin, match rules, error templates, the upstream's path)
    /// goes to the log's `_servicereplay` object and the note to its comment, so that
    /// ``importing(_:options:)`` gives this cassette back.
    ///
    /// Throws ``MockServerError`` `noUpstream` when the cassette names no upstream.
    package func har() throws(MockServerError) -> HARDocument {
        guard let upstream, !upstream.isEmpty else {
            throw MockServerError(code: .noUpstream, reason: "the cassette \(name) names no upstream, so its requests have no URL for HAR")
        }
        let base = upstream.hasSuffix("/") ? String(upstream.dropLast()) : upstream
        let fallbackDate = recordedAt ?? Date(timeIntervalSince1970: 0)
        let entries = interactions.map { HAREntry($0, base: base, fallbackDate: fallbackDate) }
        return HARDocument(log: HARLog(creator: .serviceReplay, entries: entries, comment: note, cassette: harMetadata))
    }

    private var harMetadata: HARCassetteMetadata {
        let rules = matching.isDefault ? nil : HARMatchRules(matching)
        return HARCassetteMetadata(
            name: name, upstream: upstream, origin: origin.rawValue, recordedAt: recordedAt.map(CassetteDate.format),
            matching: rules, errorTemplates: errorTemplates.isEmpty ? nil : errorTemplates.mapValues(HARResponse.init)
        )
    }
}

extension HAREntry {
    init(_ interaction: Interaction, base: String, fallbackDate: Date) {
        let started = interaction.recordedAt ?? fallbackDate
        let response: HARResponse =
            switch interaction.outcome {
            case .response(let recorded): HARResponse(recorded)
            case .failure(let failure): HARResponse(failure: failure)
            case .webSocket(let conversation): HARResponse(conversation.response)
            }
        self.init(
            startedDateTime: CassetteDate.format(started),
            time: interaction.durationMs.map(Double.init) ?? -1,
            request: HARRequest(interaction.request, base: base),
            response: response,
            timings: HARTimings(send: 0, wait: Double(interaction.durationMs ?? 0), receive: 0),
            undated: interaction.recordedAt == nil ? true : nil
        )
        if let conversation = interaction.webSocket {
            resourceType = "websocket"
            webSocketMessages = conversation.harMessages(start: started)
            webSocketEnding = conversation.harEnding
        }
    }
}

extension HARRequest {
    init(_ request: RecordedRequest, base: String) {
        let query = request.target.firstIndex(of: "?").map { request.target[request.target.index(after: $0)...] }
        var postData: HARPostData?
        if !request.body.isEmpty {
            let (text, encoding) = HARBody.text(of: request.body)
            postData = HARPostData(
                mimeType: HARBody.mimeType(for: request.body, contentType: request.headers["Content-Type"]),
                text: text, encoding: encoding)
        }
        self.init(
            method: request.method,
            url: base + request.target,
            httpVersion: "HTTP/1.1",
            headers: request.headers.lines.map { HARNameValue(name: $0.name, value: $0.value) },
            queryString: (query.map { FormField.parse($0) } ?? []).map { HARNameValue(name: $0.name, value: $0.value) },
            postData: postData,
            bodySize: request.body.data.count
        )
    }
}

extension HARResponse {
    init(_ response: RecordedResponse) {
        let (text, encoding) = HARBody.text(of: response.body)
        let reason = HTTPResponse.reasonPhrase(for: response.status)
        let stream: RecordedStream? = if case .stream(let stream) = response.body.form { stream } else { nil }
        self.init(
            status: response.status,
            statusText: reason == "Status" ? "" : reason,
            httpVersion: "HTTP/1.1",
            headers: response.headers.lines.map { HARNameValue(name: $0.name, value: $0.value) },
            content: HARContent(
                size: response.body.data.count,
                mimeType: HARBody.mimeType(for: response.body, contentType: response.headers["Content-Type"]),
                text: text, encoding: encoding, stream: stream.map(HARStream.init)),
            redirectURL: response.headers["Location"] ?? ""
        )
    }

    /// A failed exchange as browsers write one: status 0, nothing received.
    init(failure: TransportFailure) {
        self.init(
            status: 0, statusText: "", httpVersion: "", headers: [], content: HARContent(size: 0, mimeType: "x-unknown", text: nil),
            comment: "failure: \(failure.kind.rawValue)", error: failure.message)
    }
}

/// Makes the strings and request header lists an engine keeps share one storage when they are equal:
/// thousands of interactions repeat the same header names, values and request header lists, and each
/// decoded copy would otherwise cost its own allocation for as long as the engine lives.
struct SharedStrings {
    private var strings: [String: String] = [:]
    private var lastRequestHeaders: HTTPHeaders = [:]

    /// The first equal string seen, or `text` itself. Strings of up to 15 UTF-8 bytes are stored inline
    /// and share nothing, so they are returned as they are.
    mutating func string(_ text: String) -> String {
        guard text.utf8.count > 15 else { return text }
        if let existing = strings[text] { return existing }
        strings[text] = text
        return text
    }

    /// `headers` with shared names and values, in an array of exactly their size.
    mutating func headers(_ headers: HTTPHeaders) -> HTTPHeaders {
        guard !headers.isEmpty else { return headers }
        var lines: [HTTPHeader] = []
        lines.reserveCapacity(headers.count)
        for line in headers { lines.append(HTTPHeader(name: string(line.name), value: string(line.value))) }
        return HTTPHeaders(lines)
    }

    /// `request` with shared strings; its header list is the previous request's when equal (consecutive
    /// interactions usually send the same headers), which costs a comparison instead of hashing every list.
    mutating func request(_ request: RecordedRequest) -> RecordedRequest {
        let headers: HTTPHeaders
        if request.headers == lastRequestHeaders {
            headers = lastRequestHeaders
        } else {
            headers = self.headers(request.headers)
            lastRequestHeaders = headers
        }
        return RecordedRequest(method: string(request.method), target: request.target, headers: headers, body: request.body)
    }
}

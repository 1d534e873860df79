/// The `response` object of a HAR entry.
package struct HARResponse: Codable, Sendable, Hashable {
    /// The status code; 0 for a failed exchange.
    package var status: Int
    /// The reason phrase.
    var statusText: String
    /// `HTTP/1.1`, `HTTP/2`, ...
    var httpVersion: String
    /// Cookies (written empty: `Set-Cookie` headers already carry them).
    var cookies: [HARNameValue]?
    /// Header lines in order.
    var headers: [HARNameValue]
    /// The body.
    package var content: HARContent
    /// The `Location` target of a redirect, or empty.
    var redirectURL: String?
    /// Size of the header block; -1 when unknown.
    var headersSize: Int?
    /// Size of the body as transferred; -1 when unknown.
    var bodySize: Int?
    /// A free-text comment; failed exchanges name their failure here (`failure: reset`).
    var comment: String?
    /// The error text of a failed exchange (`_error`, as Chrome writes it: `net::ERR_CONNECTION_REFUSED`).
    var error: String?

    enum CodingKeys: String, CodingKey {
        case status, statusText, httpVersion, cookies, headers, content, redirectURL, headersSize, bodySize, comment
        case error = "_error"
    }

    /// Creates a response record.
    init(
        status: Int, statusText: String, httpVersion: String, cookies: [HARNameValue]? = [], headers: [HARNameValue],
        content: HARContent, redirectURL: String? = "", headersSize: Int? = -1, bodySize: Int? = -1, comment: String? = nil,
        error: String? = nil
    ) {
        self.status = status
        self.statusText = statusText
        self.httpVersion = httpVersion
        self.cookies = cookies
        self.headers = headers
        self.content = content
        self.redirectURL = redirectURL
        self.headersSize = headersSize
        self.bodySize = bodySize
        self.comment = comment
        self.error = error
    }
}

/// The `content` object of a HAR response.
package struct HARContent: Codable, Sendable, Hashable {
    /// The decoded body's length in bytes.
    var size: Int
    /// The body's media type.
    var mimeType: String
    /// The body, as text or (with ``encoding`` `"base64"`) base64; absent when not captured.
    var text: String?
    /// `"base64"` when ``text`` is base64.
    var encoding: String?
    /// A stream body's parts (`_stream`), written by this package; ``text`` holds their bytes together.
    var stream: HARStream?

    enum CodingKeys: String, CodingKey {
        case size, mimeType, text, encoding
        case stream = "_stream"
    }

    /// Creates a content record.
    init(size: Int, mimeType: String, text: String?, encoding: String? = nil, stream: HARStream? = nil) {
        self.size = size
        self.mimeType = mimeType
        self.text = text
        self.encoding = encoding
        self.stream = stream
    }
}

/// The `timings` object; only `wait` carries information for cassettes (the upstream's time).
package struct HARTimings: Codable, Sendable, Hashable {
    /// Time sending the request, ms.
    package var send: Double
    /// Time waiting for the response, ms.
    var wait: Double
    /// Time reading the response, ms.
    var receive: Double

    /// Creates timings.
    init(send: Double, wait: Double, receive: Double) {
        self.send = send
        self.wait = wait
        self.receive = receive
    }
}

/// An empty JSON object, for HAR's required-but-unused `cache` field.
package struct HAREmpty: Codable, Sendable, Hashable {
    /// Creates the empty object.
    init() {}
}

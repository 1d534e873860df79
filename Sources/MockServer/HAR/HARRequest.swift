/// The `request` object of a HAR entry.
package struct HARRequest: Codable, Sendable, Hashable {
    /// The method.
    var method: String
    /// The absolute URL.
    var url: String
    /// `HTTP/1.1`, `HTTP/2`, ...
    var httpVersion: String
    /// Cookies (written empty: the `Cookie` header already carries them).
    var cookies: [HARNameValue]?
    /// Header lines in order.
    var headers: [HARNameValue]
    /// The query parameters, decoded.
    var queryString: [HARNameValue]?
    /// The body, when there is one.
    var postData: HARPostData?
    /// Size of the header block; -1 when unknown.
    var headersSize: Int?
    /// Size of the body; -1 when unknown.
    var bodySize: Int?

    /// Creates a request record.
    init(
        method: String, url: String, httpVersion: String, cookies: [HARNameValue]? = [], headers: [HARNameValue],
        queryString: [HARNameValue]? = [], postData: HARPostData? = nil, headersSize: Int? = -1, bodySize: Int? = -1
    ) {
        self.method = method
        self.url = url
        self.httpVersion = httpVersion
        self.cookies = cookies
        self.headers = headers
        self.queryString = queryString
        self.postData = postData
        self.headersSize = headersSize
        self.bodySize = bodySize
    }
}

/// The `postData` object: a request body as text.
package struct HARPostData: Codable, Sendable, Hashable {
    /// The body's media type.
    var mimeType: String
    /// The body as text. HAR has no encoding field here; binary bodies are written as base64 with the
    /// `_encoding` extension field set to `"base64"` (the convention Charles and Proxyman read).
    var text: String?
    /// Decoded form fields, which some writers give instead of `text`.
    var params: [HARParam]?
    /// `"base64"` when ``text`` holds base64, else absent.
    var encoding: String?

    enum CodingKeys: String, CodingKey {
        case mimeType, text, params
        case encoding = "_encoding"
        /// Some writers spell the extension without the underscore, as `content` does; read, never written.
        case plainEncoding = "encoding"
    }

    /// Reads a body record, taking the encoding from `_encoding` or, failing that, `encoding`.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        mimeType = try container.decode(String.self, forKey: .mimeType)
        text = try container.decodeIfPresent(String.self, forKey: .text)
        params = try container.decodeIfPresent([HARParam].self, forKey: .params)
        encoding =
            try container.decodeIfPresent(String.self, forKey: .encoding)
            ?? container.decodeIfPresent(String.self, forKey: .plainEncoding)
    }

    /// Writes the body record; the encoding goes to `_encoding`.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(mimeType, forKey: .mimeType)
        try container.encodeIfPresent(text, forKey: .text)
        try container.encodeIfPresent(params, forKey: .params)
        try container.encodeIfPresent(encoding, forKey: .encoding)
    }

    /// Creates a body record.
    init(mimeType: String, text: String?, params: [HARParam]? = nil, encoding: String? = nil) {
        self.mimeType = mimeType
        self.text = text
        self.params = params
        self.encoding = encoding
    }
}

/// One form field of `postData.params`.
package struct HARParam: Codable, Sendable, Hashable {
    /// The field name.
    var name: String
    /// The field value, for plain fields.
    var value: String?
    /// The file name, for file parts.
    var fileName: String?
    /// The part's media type, for file parts.
    var contentType: String?

    /// Creates a form field record.
    init(name: String, value: String?, fileName: String? = nil, contentType: String? = nil) {
        self.name = name
        self.value = value
        self.fileName = fileName
        self.contentType = contentType
    }
}

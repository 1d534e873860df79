/// An HTTP Archive (HAR 1.2) document, the export format of browsers, Charles, Proxyman and mitmproxy.
///
/// Only the fields a cassette can use are modelled; unknown fields are ignored when reading. Optional
/// fields that HAR writers often leave out (`cookies`, `headersSize`, `bodySize`, `timings`) decode as
/// absent rather than failing.
public struct HARDocument: Codable, Sendable, Hashable {
    /// The archive.
    public var log: HARLog

    /// Wraps `log`.
    public init(log: HARLog) {
        self.log = log
    }
}

/// The `log` object of a HAR document.
public struct HARLog: Codable, Sendable, Hashable {
    /// The HAR version; this package writes `"1.2"` and reads 1.1 and 1.2.
    public var version: String
    /// The program that wrote the archive.
    public var creator: HARCreator
    /// The exchanges in order.
    public var entries: [HAREntry]
    /// A free-text comment; cassettes exported by this package keep their note here.
    public var comment: String?
    /// What a cassette holds beyond HAR (`_servicereplay`): written by ``Cassette/har()`` so that importing
    /// the file again restores the cassette exactly; absent in archives from other programs.
    public var cassette: HARCassetteMetadata?

    enum CodingKeys: String, CodingKey {
        case version, creator, entries, comment
        case cassette = "_servicereplay"
    }

    /// Creates a log.
    public init(version: String = "1.2", creator: HARCreator, entries: [HAREntry], comment: String? = nil,
                cassette: HARCassetteMetadata? = nil) {
        self.version = version
        self.creator = creator
        self.entries = entries
        self.comment = comment
        self.cassette = cassette
    }
}

/// The `creator` object: name and version of the writing program.
public struct HARCreator: Codable, Sendable, Hashable {
    /// Program name.
    public var name: String
    /// Program version.
    public var version: String

    /// Creates a creator record.
    public init(name: String, version: String) {
        self.name = name
        self.version = version
    }

    /// This package, as it signs the archives it writes.
    public static let serviceReplay = HARCreator(name: "ServiceReplay", version: "0.1.0")
}

/// One exchange of a HAR log.
public struct HAREntry: Codable, Sendable, Hashable {
    /// When the request started, ISO 8601.
    public var startedDateTime: String
    /// Total time in milliseconds; -1 when unknown.
    public var time: Double
    /// The request.
    public var request: HARRequest
    /// The response. A failed exchange is written with status 0, as browsers do.
    public var response: HARResponse
    /// Phase timings; HAR requires the object, but readers here do not.
    public var timings: HARTimings?
    /// Cache information; always written empty.
    public var cache: HAREmpty?
    /// A free-text comment.
    public var comment: String?
    /// `true` (`_undated`) when the exchange's time is unknown and ``startedDateTime`` is only a stand-in,
    /// since HAR requires one; written by ``Cassette/har()`` for interactions without `recordedAt`.
    public var undated: Bool?

    enum CodingKeys: String, CodingKey {
        case startedDateTime, time, request, response, timings, cache, comment
        case undated = "_undated"
    }

    /// Creates an entry.
    public init(startedDateTime: String, time: Double, request: HARRequest, response: HARResponse,
                timings: HARTimings? = nil, cache: HAREmpty? = HAREmpty(), comment: String? = nil, undated: Bool? = nil) {
        self.startedDateTime = startedDateTime
        self.time = time
        self.request = request
        self.response = response
        self.timings = timings
        self.cache = cache
        self.comment = comment
        self.undated = undated
    }
}

/// A `{name, value}` pair, used by HAR for headers, query strings and cookies.
public struct HARNameValue: Codable, Sendable, Hashable {
    /// The name.
    public var name: String
    /// The value.
    public var value: String

    /// Creates a pair.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// The `request` object of a HAR entry.
public struct HARRequest: Codable, Sendable, Hashable {
    /// The method.
    public var method: String
    /// The absolute URL.
    public var url: String
    /// `HTTP/1.1`, `HTTP/2`, ...
    public var httpVersion: String
    /// Cookies (written empty: the `Cookie` header already carries them).
    public var cookies: [HARNameValue]?
    /// Header lines in order.
    public var headers: [HARNameValue]
    /// The query parameters, decoded.
    public var queryString: [HARNameValue]?
    /// The body, when there is one.
    public var postData: HARPostData?
    /// Size of the header block; -1 when unknown.
    public var headersSize: Int?
    /// Size of the body; -1 when unknown.
    public var bodySize: Int?

    /// Creates a request record.
    public init(method: String, url: String, httpVersion: String, cookies: [HARNameValue]? = [], headers: [HARNameValue],
                queryString: [HARNameValue]? = [], postData: HARPostData? = nil, headersSize: Int? = -1, bodySize: Int? = -1) {
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
public struct HARPostData: Codable, Sendable, Hashable {
    /// The body's media type.
    public var mimeType: String
    /// The body as text. HAR has no encoding field here; binary bodies are written as base64 with the
    /// `_encoding` extension field set to `"base64"` (the convention Charles and Proxyman read).
    public var text: String?
    /// Decoded form fields, which some writers give instead of `text`.
    public var params: [HARParam]?
    /// `"base64"` when ``text`` holds base64, else absent.
    public var encoding: String?

    enum CodingKeys: String, CodingKey {
        case mimeType, text, params
        case encoding = "_encoding"
        /// Some writers spell the extension without the underscore, as `content` does; read, never written.
        case plainEncoding = "encoding"
    }

    /// Reads a body record, taking the encoding from `_encoding` or, failing that, `encoding`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        mimeType = try container.decode(String.self, forKey: .mimeType)
        text = try container.decodeIfPresent(String.self, forKey: .text)
        params = try container.decodeIfPresent([HARParam].self, forKey: .params)
        encoding = try container.decodeIfPresent(String.self, forKey: .encoding)
            ?? container.decodeIfPresent(String.self, forKey: .plainEncoding)
    }

    /// Writes the body record; the encoding goes to `_encoding`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(mimeType, forKey: .mimeType)
        try container.encodeIfPresent(text, forKey: .text)
        try container.encodeIfPresent(params, forKey: .params)
        try container.encodeIfPresent(encoding, forKey: .encoding)
    }

    /// Creates a body record.
    public init(mimeType: String, text: String?, params: [HARParam]? = nil, encoding: String? = nil) {
        self.mimeType = mimeType
        self.text = text
        self.params = params
        self.encoding = encoding
    }
}

/// One form field of `postData.params`.
public struct HARParam: Codable, Sendable, Hashable {
    /// The field name.
    public var name: String
    /// The field value, for plain fields.
    public var value: String?
    /// The file name, for file parts.
    public var fileName: String?
    /// The part's media type, for file parts.
    public var contentType: String?

    /// Creates a form field record.
    public init(name: String, value: String?, fileName: String? = nil, contentType: String? = nil) {
        self.name = name
        self.value = value
        self.fileName = fileName
        self.contentType = contentType
    }
}

/// The `response` object of a HAR entry.
public struct HARResponse: Codable, Sendable, Hashable {
    /// The status code; 0 for a failed exchange.
    public var status: Int
    /// The reason phrase.
    public var statusText: String
    /// `HTTP/1.1`, `HTTP/2`, ...
    public var httpVersion: String
    /// Cookies (written empty: `Set-Cookie` headers already carry them).
    public var cookies: [HARNameValue]?
    /// Header lines in order.
    public var headers: [HARNameValue]
    /// The body.
    public var content: HARContent
    /// The `Location` target of a redirect, or empty.
    public var redirectURL: String?
    /// Size of the header block; -1 when unknown.
    public var headersSize: Int?
    /// Size of the body as transferred; -1 when unknown.
    public var bodySize: Int?
    /// A free-text comment; failed exchanges name their failure here (`failure: reset`).
    public var comment: String?
    /// The error text of a failed exchange (`_error`, as Chrome writes it: `net::ERR_CONNECTION_REFUSED`).
    public var error: String?

    enum CodingKeys: String, CodingKey {
        case status, statusText, httpVersion, cookies, headers, content, redirectURL, headersSize, bodySize, comment
        case error = "_error"
    }

    /// Creates a response record.
    public init(status: Int, statusText: String, httpVersion: String, cookies: [HARNameValue]? = [], headers: [HARNameValue],
                content: HARContent, redirectURL: String? = "", headersSize: Int? = -1, bodySize: Int? = -1, comment: String? = nil,
                error: String? = nil) {
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
public struct HARContent: Codable, Sendable, Hashable {
    /// The decoded body's length in bytes.
    public var size: Int
    /// The body's media type.
    public var mimeType: String
    /// The body, as text or (with ``encoding`` `"base64"`) base64; absent when not captured.
    public var text: String?
    /// `"base64"` when ``text`` is base64.
    public var encoding: String?

    /// Creates a content record.
    public init(size: Int, mimeType: String, text: String?, encoding: String? = nil) {
        self.size = size
        self.mimeType = mimeType
        self.text = text
        self.encoding = encoding
    }
}

/// The `timings` object; only `wait` carries information for cassettes (the upstream's time).
public struct HARTimings: Codable, Sendable, Hashable {
    /// Time sending the request, ms.
    public var send: Double
    /// Time waiting for the response, ms.
    public var wait: Double
    /// Time reading the response, ms.
    public var receive: Double

    /// Creates timings.
    public init(send: Double, wait: Double, receive: Double) {
        self.send = send
        self.wait = wait
        self.receive = receive
    }
}

/// An empty JSON object, for HAR's required-but-unused `cache` field.
public struct HAREmpty: Codable, Sendable, Hashable {
    /// Creates the empty object.
    public init() {}
}

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

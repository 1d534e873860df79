/// One exchange of a HAR log.
package struct HAREntry: Codable, Sendable, Hashable {
    /// When the request started, ISO 8601.
    var startedDateTime: String
    /// Total time in milliseconds; -1 when unknown.
    var time: Double
    /// The request.
    var request: HARRequest
    /// The response. A failed exchange is written with status 0, as browsers do.
    package var response: HARResponse
    /// Phase timings; HAR requires the object, but readers here do not.
    var timings: HARTimings?
    /// Cache information; always written empty.
    var cache: HAREmpty?
    /// A free-text comment.
    var comment: String?
    /// `true` (`_undated`) when the exchange's time is unknown and ``startedDateTime`` is only a stand-in,
    /// since HAR requires one; written by ``Cassette/har()`` for interactions without `recordedAt`.
    var undated: Bool?
    /// `websocket` (`_resourceType`) for a WebSocket conversation, as browsers mark one; otherwise absent.
    var resourceType: String?
    /// A WebSocket conversation's data messages (`_webSocketMessages`), in the shape browsers write them.
    var webSocketMessages: [HARWebSocketMessage]?
    /// How a WebSocket conversation ended (`_webSocketEnding`), which browsers do not write; absent while open.
    var webSocketEnding: HARWebSocketEnding?

    enum CodingKeys: String, CodingKey {
        case startedDateTime, time, request, response, timings, cache, comment
        case undated = "_undated"
        case resourceType = "_resourceType"
        case webSocketMessages = "_webSocketMessages"
        case webSocketEnding = "_webSocketEnding"
    }

    /// Creates an entry.
    init(
        startedDateTime: String, time: Double, request: HARRequest, response: HARResponse,
        timings: HARTimings? = nil, cache: HAREmpty? = HAREmpty(), comment: String? = nil, undated: Bool? = nil
    ) {
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

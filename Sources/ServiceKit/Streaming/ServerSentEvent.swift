import Foundation
import ServiceReplayShared

/// One event of a `text/event-stream` response, as the WHATWG HTML standard's "interpreting an event
/// stream" dispatches it.
public struct ServerSentEvent: Hashable, Sendable {
    /// The `event` field's value, or `"message"` when the event named no type.
    public var type: String
    /// The `data` fields' values joined by line feeds, so multi-line data keeps its lines. An event
    /// without any `data` field is never dispatched; a `data` field with no value gives `""`.
    public var data: String
    /// The last `id` the stream set, at or before this event; `""` when none was set. As the standard says,
    /// it carries over to later events until another `id` field changes it.
    public var lastEventID: String
    /// The reconnection time in milliseconds the stream last asked for with a `retry` field, at or before
    /// this event (`Int.max` for digits beyond it); `nil` when it never did.
    public var retry: Int?

    /// An event; `type` defaults to `"message"` and `lastEventID` to `""`.
    public init(type: String = "message", data: String, lastEventID: String = "", retry: Int? = nil) {
        self.type = type
        self.data = data
        self.lastEventID = lastEventID
        self.retry = retry
    }

    /// The event the package's one event-stream parser dispatched.
    init(_ parsed: ServerSentEventParser.Event) {
        self.init(type: parsed.type, data: parsed.data, lastEventID: parsed.lastEventID, retry: parsed.retry)
    }

    /// The data parsed as JSON (the usual payload of a streaming API); `nil` when it is not JSON.
    public var json: JSON? {
        guard let document = try? JSONDocument.parse(Data(data.utf8)) else { return nil }
        return JSON(document: document)
    }
}

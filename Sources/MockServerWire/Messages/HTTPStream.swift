import Foundation

/// A response whose body is sent in parts, each when it is due: a server-sent event stream or any other
/// chunked stream, replayed with its recorded timing. The server sends the head at once (with
/// `Transfer-Encoding: chunked` for HTTP/1.1 clients), then one chunk per part.
package struct HTTPStream: Sendable {
    /// One part of the body and when it is due.
    package struct Part: Sendable, Hashable {
        /// Nanoseconds from the moment the head is sent.
        package var offset: UInt64
        /// The bytes of the part (not yet chunk-framed).
        package var bytes: Data

        package init(offset: UInt64, bytes: Data) {
            self.offset = offset
            self.bytes = bytes
        }
    }

    /// What happens after the last part.
    package enum Ending: Sendable, Hashable {
        /// The body ends properly (the last chunk), and the connection may serve further requests.
        case complete
        /// The connection closes without ending the body: the client sees a stream cut short.
        case cut
        /// Nothing more is sent and the connection stays open, until the client gives up.
        case stall
    }

    /// Status and headers; `Content-Length` and `Transfer-Encoding` are left out and the server writes its
    /// own framing. A `Content-Encoding` stays: it describes the parts' bytes. Its body is ignored.
    package var head: HTTPResponse
    /// The parts in order, offsets not decreasing.
    package var parts: [Part]
    /// What happens after the last part; default ``Ending/complete``.
    package var ending: Ending = .complete
    /// How offsets map to time: each is multiplied by this factor (0 sends everything at once, 0.5 twice
    /// as fast); default 1.
    package var timeScale: Double = 1
    /// Added before every part after the first, on top of its offset (latency between events).
    package var extraGap: UInt64 = 0

    /// A stream of `parts` after `head`.
    package init(head: HTTPResponse, parts: [Part]) {
        var head = head
        head.headers.remove(name: "Content-Length")
        head.headers.remove(name: "Transfer-Encoding")
        head.body = Data()
        self.head = head
        self.parts = parts
    }

    /// When part `index` is due, in nanoseconds after the head.
    package func due(_ index: Int) -> UInt64 {
        let scaled = Double(parts[index].offset) * timeScale
        let base = scaled.isFinite && scaled < 1.8e19 ? UInt64(max(0, scaled)) : UInt64.max / 2
        let gaps = UInt64(index).multipliedReportingOverflow(by: extraGap)
        return gaps.overflow ? UInt64.max / 2 : min(UInt64.max / 2, base &+ gaps.partialValue)
    }

    /// The whole stream as one ordinary response (body concatenated, exact `Content-Length`): what faults
    /// that damage a response as a whole work on.
    package var wholeResponse: HTTPResponse {
        var response = head
        var body = Data()
        for part in parts { body += part.bytes }
        response.body = body
        response.headers.set(name: "Content-Length", value: String(body.count))
        return response
    }
}

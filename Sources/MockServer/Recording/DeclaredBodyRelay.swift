import Foundation
import ServiceReplayShared

/// A response body whose length the upstream declared (`Content-Length`, no content coding), passed on to
/// the client as it arrives, under that `Content-Length`, while the exchange is still collected and recorded
/// whole as before (see ``UpstreamBodyRoute/collect(showingEach:)``): the cassette is the same, and a client
/// whose read timeout is shorter than the whole transfer sees the bytes come instead of timing out.
///
/// The piece that completes the body is held back until ``finish(complete:)``, which the recording server
/// calls once the exchange is recorded, so that a client holding the whole body finds it recorded, as when
/// the body was held. A body that does not end properly reaches the client cut short: its head went out, so
/// a 502 can no longer take its place.
///
/// Every such body is passed on, however small: deciding by size would need to know how much has arrived
/// with the head, which URLSession does not tell, and one that arrives at once only costs its head and
/// its bytes queued as two writes rather than one.
final class DeclaredBodyRelay: Sendable {
    private struct State {
        var passed = 0
        /// The piece that completes the body, until ``finish(complete:)``.
        var last: Data?
    }

    /// What the client is sent.
    let live: LiveStream
    /// The body's declared length.
    let length: Int
    private let state = Lock(State())

    /// The relay for a response with `status` and header `fields` from the upstream (to a request other than
    /// `HEAD`), or `nil` when its body is not passed on this way: it has none (1xx, 204, 304, a length of 0),
    /// its length is not declared (see ``StreamRelay``), or it is coded (stored and sent decoded, with the
    /// decoded length, which is known only at its end).
    static func start(status: Int, fields: [(name: String, value: String)]) -> DeclaredBodyRelay? {
        guard status >= 200, status != 204, status != 304 else { return nil }
        let upstream = HTTPHeaders(fields.map { HTTPHeader(name: $0.name, value: $0.value) })
        guard !upstream.contains("Content-Encoding"), !upstream.contains("Transfer-Encoding"),
            let length = try? UpstreamResponseReader.contentLength(in: upstream), length > 0
        else { return nil }
        // The head a held body of this length is sent with.
        let head = HTTPResponse(status: status, headers: ProxyHeaders.response(fields, bodyCount: length))
        return DeclaredBodyRelay(live: LiveStream(head: head, declaredLength: length), length: length)
    }

    private init(live: LiveStream, length: Int) {
        self.live = live
        self.length = length
    }

    /// Passes the next piece of the body to the client, except the one that completes it, which waits for
    /// ``finish(complete:)``. Bytes beyond the declared length are dropped.
    func pass(_ piece: Data) {
        let now = state.withLock { state -> Data? in
            let room = length - state.passed
            guard room > 0 else { return nil }
            let piece = piece.count <= room ? piece : piece.prefix(room)
            state.passed += piece.count
            guard state.passed < length else {
                state.last = piece
                return nil
            }
            return piece
        }
        if let now { live.send(now) }
    }

    /// How many body bytes the upstream sent so far.
    var byteCount: Int { state.withLock { $0.passed } }

    /// Ends the client's answer: with the piece held back when the upstream's answer is `complete`, else cut
    /// where it is, the connection closed.
    func finish(complete: Bool) {
        if complete, let last = state.withLock({ $0.last }) {
            live.send(last)
        }
        live.finish(complete ? .complete : .cut)
    }
}

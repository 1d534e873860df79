import Foundation
import ServiceReplayTestSupport
@testable import MockServer
import ServiceReplayShared

/// The requests an upstream test server received, in arrival order.
final class UpstreamLog: Sendable {
    private let requests = Lock<[HTTPRequest]>([])

    func append(_ request: HTTPRequest) {
        requests.withLock { $0.append(request) }
    }

    var all: [HTTPRequest] { requests.withLock { $0 } }
}

/// A small upstream API on loopback with one route per kind of answer a recorder must cope with.
enum FakeUpstream {
    /// A compact JSON document, stored inline and replayed byte for byte.
    static let json = Data(#"{"a":[true,null],"b":1,"url":"http://example.com/x"}"#.utf8)
    static let text = Data("hello\nworld\n".utf8)
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFF, 0xFE, 0x80])

    /// Answers by path: `/json`, `/text`, `/binary`, `/gzip`, `/redirect`, `/no-content`,
    /// `/cookies`, `/echo` (the request body back, with its content type), `/reset` (before any byte),
    /// `/broken` (a head and part of the body, then the connection closed), `/broken-head` (part of a head,
    /// then the connection closed), `/stall`, `/stall-body` (a head and part of the body, then nothing); else 404.
    @Sendable static func respond(_ request: HTTPRequest) -> HTTPReply {
        switch request.path {
        case "/json":
            return .response(status: 200, headers: ["Content-Type": "application/json"], body: json)
        case "/text":
            return .response(status: 200, headers: ["Content-Type": "text/plain; charset=utf-8"], body: text)
        case "/binary":
            return .response(status: 200, headers: ["Content-Type": "image/png"], body: png)
        case "/gzip":
            return .response(
                status: 200, headers: ["Content-Type": "application/json", "Content-Encoding": "gzip"],
                body: StoredGzip.encode(json))
        case "/redirect":
            return .response(
                status: 302, headers: ["Location": "/json", "Content-Type": "text/plain; charset=utf-8"],
                body: Data("moved".utf8))
        case "/no-content":
            return .response(status: 204)
        case "/cookies":
            return .response(
                status: 200,
                headers: HTTPHeaders(pairs: [
                    ("Set-Cookie", "session=s3cr3t-session; Path=/; Expires=Wed, 21 Oct 2026 07:28:00 GMT; HttpOnly"),
                    ("Set-Cookie", "theme=dark; Path=/"),
                    ("Content-Type", "text/plain; charset=utf-8"),
                ]), body: Data("cookies".utf8))
        case "/echo":
            var headers: HTTPHeaders = [:]
            if let type = request.headers["Content-Type"] { headers.add(name: "Content-Type", value: type) }
            return .response(status: 200, headers: headers, body: request.body)
        case "/reset":
            return .reset
        case "/broken":
            return .raw(Data("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\npart of".utf8), then: .close)
        case "/broken-head":
            return .raw(Data("HTTP/1.1 200 OK\r\nContent-Ty".utf8), then: .close)
        case "/stall":
            return .stall
        case "/stall-body":
            return .raw(Data("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\npart of".utf8), then: .stall)
        default:
            return .response(status: 404, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Data("no route".utf8))
        }
    }
}

/// Runs `body` with a started upstream answering as ``FakeUpstream`` does (or with `respond`), logging
/// every request it receives.
func withUpstream<T>(
    respond: @escaping @Sendable (HTTPRequest) -> HTTPReply = FakeUpstream.respond,
    _ body: (URL, UpstreamLog) async throws -> T
) async throws -> T {
    let log = UpstreamLog()
    return try await withServer(respond: { request in
        log.append(request)
        return respond(request)
    }) { _, url in
        try await body(url, log)
    }
}

/// Runs `body` with a started ``CassetteServer`` forwarding to `upstream` in `mode`, recording into `file`
/// (in memory when `nil`), then stops it whether `body` returns or throws.
func withRecordingServer<T>(
    upstream: URL,
    mode: CassetteServer.Mode = .record,
    file: URL? = nil,
    cassettes: [Cassette] = [],
    timeout: Duration = .seconds(20),
    clientGoneGrace: Duration? = nil,
    onExchange: (@Sendable (ForwardedExchange) -> Void)? = nil,
    _ body: (CassetteServer, URL) async throws -> T
) async throws -> T {
    var options = RecordingOptions(upstream: try Upstream(upstream), file: file, timeout: timeout)
    options.onExchange = onExchange
    if let clientGoneGrace { options.clientGoneGrace = clientGoneGrace }
    let configuration = CassetteServer.Configuration(faults: .none, mode: mode, recording: options)
    let server = try CassetteServer(cassettes: cassettes, configuration: configuration)
    let base = try await server.start()
    do {
        let result = try await body(server, base)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}

/// Sends the raw request `head` (request line and header lines, without the blank line that ends them)
/// and `body` on a new connection, and reads one response.
func rawExchange(_ base: URL, _ head: String, body: Data = Data(), timeout: Duration = .seconds(20)) async throws -> RawHTTPClient.Response {
    let client = try RawHTTPClient(base)
    defer { client.close() }
    var bytes = Data((head + "\r\n" + (body.isEmpty ? "" : "Content-Length: \(body.count)\r\n") + "\r\n").utf8)
    bytes.append(body)
    try client.send(bytes)
    return try await client.readResponse(forHEAD: head.hasPrefix("HEAD "), timeout: timeout)
}

/// A port nothing listens on and that no parallel test's server can be given (a port a server just released
/// could be): held by a bound, never-listening socket until the test process ends.
func closedPort() async throws -> Int {
    let reserved = try ReservedPort()
    heldPorts.withLock { $0.append(reserved) }
    return Int(reserved.port)
}

private let heldPorts = Lock<[ReservedPort]>([])

/// The exchanges a recording server reported through ``RecordingOptions/onExchange``.
final class ExchangeReports: Sendable {
    private let exchanges = Lock<[ForwardedExchange]>([])

    @Sendable func append(_ exchange: ForwardedExchange) {
        exchanges.withLock { $0.append(exchange) }
    }

    var all: [ForwardedExchange] { exchanges.withLock { $0 } }
}

/// Holds one upstream answer until the test releases it, and lets the test wait until the request arrived.
final class UpstreamGate: Sendable {
    private let state = Lock<(responder: HTTPResponder?, waiter: CheckedContinuation<Void, Never>?)>((nil, nil))

    func hold(_ responder: HTTPResponder) {
        let waiter = state.withLock { state in
            state.responder = responder
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    func waitForRequest() async {
        await withCheckedContinuation { continuation in
            let arrived = state.withLock { state in
                if state.responder != nil { return true }
                state.waiter = continuation
                return false
            }
            if arrived { continuation.resume() }
        }
    }

    func release(with reply: HTTPReply) {
        state.withLock { $0.responder }?.send(reply)
    }
}

#if os(macOS) || os(Linux)  // The benchmarks start child processes (Process), which iOS, tvOS and watchOS lack.
import Foundation
import MockServer
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `mockserver-bench stream [--events N] [--runs R]`: the replay rate of a stream of N server-sent events
/// (default 10,000, each a ~120-byte chat delta) with instant timing, read over loopback by a raw socket
/// client until the server closes. The reference, measured in the same run and alternating with it, is the
/// very same bytes replayed as one ordinary body. Prints the best of R runs (default 20) of each:
/// `stream EVENTS/S`, `body EVENTS/S` (the same bytes, counted as the same events) and `ratio STREAM/BODY`.
enum StreamCommand {
    static func run(_ arguments: [String]) async throws {
        var events = 10_000
        var runs = 20
        var index = 0
        while index < arguments.count {
            guard index + 1 < arguments.count, let value = Int(arguments[index + 1]), value >= 1 else {
                throw BenchmarkError("stream takes --events N and --runs R, each a whole number of at least 1.")
            }
            switch arguments[index] {
            case "--events": events = value
            case "--runs": runs = value
            default: throw BenchmarkError("Unknown argument '\(arguments[index])' for stream.")
            }
            index += 2
        }
        let parts = (0..<events).map { number in
            RecordedStream.Part(
                offsetMs: number / 10,
                .event(
                    ServerSentEventFields(
                        data: #"{"id":"chatcmpl-1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"token \#(number)"}}]}"#)))
        }
        let stream = RecordedStream(parts)
        let headers: HTTPHeaders = ["Content-Type": "text/event-stream"]
        let cassette = Cassette(
            name: "stream-bench",
            interactions: [
                Interaction(
                    request: RecordedRequest(method: "GET", target: "/stream"),
                    response: RecordedResponse(status: 200, headers: headers, body: .stream(stream))),
                Interaction(
                    request: RecordedRequest(method: "GET", target: "/body"),
                    response: RecordedResponse(status: 200, headers: headers, body: .text(String(decoding: stream.data, as: UTF8.self)))),
            ])
        let configuration = CassetteServer.Configuration(faults: .none, journalCapacity: 1, streamTiming: .instant)
        try await withMockServer(cassettes: [cassette], configuration: configuration) { server in
            guard let port = server.baseURL?.port else { throw BenchmarkError("the server has no port") }
            // Checked once, outside the timed runs: both answers carry the same body bytes.
            let expected = try bodyLength(fetch("/stream", port: port))
            guard try bodyLength(fetch("/body", port: port)) == expected else { throw BenchmarkError("the stream and the body differ") }
            var bestStream = Duration.seconds(3600)
            var bestBody = Duration.seconds(3600)
            let clock = ContinuousClock()
            for _ in 0..<runs {
                bestStream = min(bestStream, try clock.measure { _ = try fetch("/stream", port: port).count })
                bestBody = min(bestBody, try clock.measure { _ = try fetch("/body", port: port).count })
            }
            let streamRate = Double(events) / bestStream.seconds
            let bodyRate = Double(events) / bestBody.seconds
            print("stream \(String(format: "%.0f", streamRate)) events/s (\(events) events in \(String(format: "%.1f", bestStream.seconds * 1000)) ms)")
            print("body \(String(format: "%.0f", bodyRate)) events/s (the same \(expected) body bytes as one body)")
            print("ratio \(String(format: "%.2f", streamRate / bodyRate))")
        }
    }

    /// Sends `GET path` with `Connection: close` to 127.0.0.1:`port` and reads until the server closes;
    /// returns every byte received.
    static func fetch(_ path: String, port: Int) throws -> [UInt8] {
        let fd = try connectedLoopbackSocket(port: port)
        defer { close(fd) }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8)
        guard send(fd, request, request.count, 0) == request.count else { throw BenchmarkError("send() failed") }
        var received = [UInt8]()
        received.reserveCapacity(1 << 21)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            received.append(contentsOf: buffer[0..<count])
        }
        return received
    }

    /// The body's length in bytes, of a Content-Length or a chunked response.
    static func bodyLength(_ response: [UInt8]) throws -> Int {
        let text = String(decoding: response, as: UTF8.self)
        guard let end = text.range(of: "\r\n\r\n") else { throw BenchmarkError("no response head") }
        let head = text[..<end.lowerBound].lowercased()
        var body = Substring(text[end.upperBound...])
        guard head.contains("transfer-encoding: chunked") else { return body.utf8.count }
        var length = 0
        while let line = body.range(of: "\r\n"), let size = Int(body[..<line.lowerBound], radix: 16) {
            if size == 0 { return length }
            length += size
            body = body[body.utf8.index(line.upperBound, offsetBy: size + 2)...]
        }
        throw BenchmarkError("the chunked body did not end")
    }
}

/// A blocking TCP socket connected to 127.0.0.1:`port`.
func connectedLoopbackSocket(port: Int) throws -> Int32 {
    #if canImport(Glibc)
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { throw BenchmarkError("socket() failed") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else {
        close(fd)
        throw BenchmarkError("connect() failed")
    }
    return fd
}
#endif

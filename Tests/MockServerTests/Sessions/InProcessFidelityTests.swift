import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import MockServer
import ServiceReplayShared
import Testing

/// A routed request answered in its client's process shows the client, the journal and the control API exactly
/// what the same request shows over the loopback socket: each class of answer is sent through both roads, to
/// two servers replaying the same cassette, and everything observable is compared.
@Suite struct InProcessFidelityTests {
    /// One class of answer: what the cassette holds, what the client asks, and the road the reply must take.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        var interactions: [Interaction]
        var method = "GET"
        var path: String
        var headers: [String: String] = [:]
        var body: Data?
        var faults: String?
        var timeout: TimeInterval = 60
        /// The reply can only be delivered by the socket (a coded body, a network-level fault).
        var needsSocket = false
        /// The least time the answer takes on either road (recorded stream timing, latency).
        var atLeast: Duration = .zero
        /// The body the client must get, byte for byte, when the case names one.
        var expectedBody: Data?

        var testDescription: String { name }
    }

    /// What the client and the server show of one request.
    struct Seen: Equatable {
        var status: Int?
        /// `allHeaderFields`, without `Date` (whose second may differ between the two requests).
        var headers: [String: String] = [:]
        var hasDate = false
        var body = Data()
        var error: URLError.Code?
        /// The journal's entries: request line, header lines sorted, body and outcome.
        var journal: [String] = []
        var unmatched: Int = 0
    }

    static let compressedText = Data(#"{"message":"compressed hello, compressed hello"}"#.utf8)
    static let gzip = Data([
        31, 139, 8, 0, 0, 0, 0, 0, 2, 3, 171, 86, 202, 77, 45, 46, 78, 76, 79, 85, 178, 82, 74, 206, 207, 45, 40, 2, 242, 82, 83, 20, 50, 82, 115,
        114, 242, 117, 20, 208, 69, 148, 106, 1, 44, 94, 170, 172, 48, 0, 0, 0,
    ])
    static let deflate = Data([
        120, 156, 171, 86, 202, 77, 45, 46, 78, 76, 79, 85, 178, 82, 74, 206, 207, 45, 40, 2, 242, 82, 83, 20, 50, 82, 115, 114, 242, 117, 20, 208,
        69, 148, 106, 1, 175, 41, 17, 190,
    ])
    static let brotli = Data([
        27, 47, 0, 248, 141, 196, 56, 22, 241, 66, 117, 34, 74, 145, 182, 189, 214, 25, 123, 235, 3, 19, 57, 112, 8, 172, 45, 194, 131, 188, 53, 8,
        161, 30, 139, 52, 6, 172, 60, 28, 245, 170, 1,
    ])

    static func answer(
        _ status: Int = 200, _ headers: HTTPHeaders = [:], _ body: RecordedBody = .empty, for path: String, method: String = "GET"
    )
        -> Interaction
    {
        Interaction(request: RecordedRequest(method: method, target: path), response: RecordedResponse(status: status, headers: headers, body: body))
    }

    static func coded(_ coding: String, _ bytes: Data) -> Case {
        Case(
            name: coding, interactions: [answer(200, ["Content-Type": "application/json", "Content-Encoding": coding], .binary(bytes), for: "/coded")],
            path: "/coded", needsSocket: true)
    }

    static let cases: [Case] = {
        var templated = Cassette(name: "templated", interactions: [.stub("GET", "/thing", json: ["ok": true])])
        templated.errorTemplates["quota"] = RecordedResponse(status: 429, headers: ["Content-Type": "application/json"], body: .json(["error": "quota"]))
        let stream = RecordedStream([
            .init(offsetMs: 0, .event(.init(data: "one"))), .init(offsetMs: 150, .event(.init(event: "next", data: "two"))),
            .init(offsetMs: 300, .event(.init(data: "[DONE]"))),
        ])
        let chunks = RecordedStream([.init(offsetMs: 0, .text("first ")), .init(offsetMs: 0, .text("second"))])
        let large = Data((0..<(4 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        return [
            Case(name: "JSON", interactions: [.stub("GET", "/json", json: ["login": "octocat", "id": 1])], path: "/json"),
            Case(name: "text", interactions: [.stub("GET", "/text", text: "plain words\n")], path: "/text"),
            Case(
                name: "binary", interactions: [answer(200, ["Content-Type": "application/octet-stream"], .binary(Data(0...255)), for: "/bin")],
                path: "/bin"),
            coded("gzip", gzip), coded("deflate", deflate), coded("br", brotli),
            Case(
                name: "chunked", interactions: [answer(200, ["Content-Type": "text/plain"], .stream(chunks), for: "/chunks")], path: "/chunks",
                expectedBody: Data("first second".utf8)),
            Case(
                name: "SSE with timing", interactions: [answer(200, ["Content-Type": "text/event-stream"], .stream(stream), for: "/events")],
                path: "/events", atLeast: .milliseconds(300), expectedBody: stream.data),
            Case(
                name: "redirect", interactions: [answer(302, ["Location": "https://api.example.test/elsewhere"], for: "/moved")], path: "/moved"),
            Case(name: "HEAD", interactions: [.stub("HEAD", "/json", json: ["login": "octocat"])], method: "HEAD", path: "/json"),
            // A body recorded beside 204 and 304 is never sent: a client reads none.
            Case(
                name: "204", interactions: [answer(204, [:], .text("never sent"), for: "/empty", method: "DELETE")], method: "DELETE", path: "/empty",
                expectedBody: Data()),
            Case(
                name: "304", interactions: [answer(304, ["ETag": #""v1""#], .text("never sent"), for: "/cached")], path: "/cached",
                headers: ["If-None-Match": #""v1""#], expectedBody: Data()),
            Case(
                name: "range",
                interactions: [
                    Interaction(
                        request: RecordedRequest(method: "GET", target: "/blob", headers: ["Range": "bytes=0-9"]),
                        response: RecordedResponse(
                            status: 206, headers: ["Content-Range": "bytes 0-9/100", "Content-Type": "application/octet-stream"],
                            body: .binary(Data(0..<10))))
                ], path: "/blob", headers: ["Range": "bytes=0-9"]),
            Case(
                name: "repeated headers",
                interactions: [
                    answer(
                        200,
                        HTTPHeaders(pairs: [
                            ("Set-Cookie", "a=1; Path=/"), ("X-Multi", "one"), ("Set-Cookie", "b=2; Path=/; HttpOnly"), ("X-Multi", "two"),
                            ("Content-Type", "text/plain"),
                        ]), .text("cookies"), for: "/cookies")
                ], path: "/cookies"),
            Case(
                name: "large body", interactions: [answer(200, ["Content-Type": "application/octet-stream"], .binary(large), for: "/large")],
                path: "/large", expectedBody: large),
            Case(
                name: "POST with a JSON body",
                interactions: [.stub("POST", "/users", status: 201, json: ["id": 7], requestBody: .json(["login": "hubot"]))], method: "POST",
                path: "/users", headers: ["Content-Type": "application/json"], body: Data(#"{"login":"hubot"}"#.utf8)),
            Case(name: "unmatched", interactions: [.stub("GET", "/json", json: ["login": "octocat"])], path: "/nothing/here"),
            Case(name: "template", interactions: templated.interactions, path: "/thing", faults: "service-error=quota"),
            Case(name: "429 with Retry-After", interactions: [.stub("GET", "/json", json: ["ok": true])], path: "/json", faults: "status=429"),
            Case(
                name: "latency", interactions: [.stub("GET", "/json", json: ["ok": true])], path: "/json", faults: "latency=250ms",
                atLeast: .milliseconds(250)),
            Case(
                name: "latency beyond the timeout", interactions: [.stub("GET", "/json", json: ["ok": true])], path: "/json", faults: "latency=5s",
                timeout: 1, atLeast: .seconds(1)),
            Case(name: "reset", interactions: [.stub("GET", "/json", json: ["ok": true])], path: "/json", faults: "reset", needsSocket: true),
            Case(
                name: "bandwidth", interactions: [.stub("GET", "/json", json: ["ok": true])], path: "/json", faults: "throttle=64KB/s",
                needsSocket: true),
        ]
    }()

    /// The error templates of the template case's cassette.
    static func cassette(for test: Case) -> Cassette {
        var cassette = Cassette(name: "fidelity", interactions: test.interactions)
        cassette.errorTemplates["quota"] = RecordedResponse(status: 429, headers: ["Content-Type": "application/json"], body: .json(["error": "quota"]))
        return cassette
    }

    /// What `test` shows through a server that answers routed requests in-process (`inProcess`) or over the
    /// socket, and whether the server accepted a connection for it.
    static func seen(_ test: Case, inProcess: Bool) async throws -> (seen: Seen, connections: UInt64, elapsed: Duration) {
        var configuration = CassetteServer.Configuration(faults: try test.faults.map { .plan(try FaultPlan.parse(specs: $0, seed: 7)) } ?? .none)
        configuration.answersRoutedRequestsInProcess = inProcess
        let server = try CassetteServer(cassettes: [cassette(for: test)], configuration: configuration)
        try await server.start()
        let routed = try server.sessionConfiguration()
        routed.timeoutIntervalForRequest = test.timeout
        let session = URLSession(configuration: routed)
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: try #require(URL(string: "https://api.example.test" + test.path)))
        request.httpMethod = test.method
        request.httpBody = test.body
        for (name, value) in test.headers { request.setValue(value, forHTTPHeaderField: name) }
        var seen = Seen()
        let clock = ContinuousClock()
        let started = clock.now
        do {
            let (data, response) = try await session.data(for: request)
            let http = try #require(response as? HTTPURLResponse)
            #expect(http.url == request.url)
            seen.status = http.statusCode
            for (name, value) in http.allHeaderFields {
                guard let name = name as? String, let value = value as? String else { continue }
                if name.caseInsensitiveEquals("Date") { seen.hasDate = true } else { seen.headers[name] = value }
            }
            seen.body = data
        } catch let error as URLError {
            seen.error = error.code
        }
        let elapsed = clock.now - started
        seen.journal = server.journal.entries.map { entry in
            let lines = entry.request.headers.lines.map { "\($0.name): \($0.value)" }.sorted()
            return "\(entry.request.method) \(entry.request.target) \(lines) \(entry.request.body.count) → \(entry.outcome)"
        }
        seen.unmatched = server.unmatchedRequests.count
        let connections = server.http.acceptedConnectionCount
        await server.stop()
        return (seen, connections, elapsed)
    }

    @Test(arguments: cases)
    func everyClassOfAnswer_looksTheSameInProcessAsOverTheSocket(_ test: Case) async throws {
        // GIVEN what the platform's URLSession adds to a request, learned
        try #require(await URLSessionAddedHeaders.learned() != nil)
        // WHEN the same request goes to a server that answers routed requests over the socket, and to one that
        // answers them in-process
        let socket = try await Self.seen(test, inProcess: false)
        let inProcess = try await Self.seen(test, inProcess: true)
        // THEN the client, the journal and the near misses see the same, byte for byte
        #expect(inProcess.seen.status == socket.seen.status)
        #expect(inProcess.seen.headers == socket.seen.headers)
        #expect(inProcess.seen.hasDate == socket.seen.hasDate)
        // Compared as a Bool: the testing library's difference of two megabytes of bytes takes forever.
        let sameBody = inProcess.seen.body == socket.seen.body
        #expect(
            sameBody,
            "bodies of \(inProcess.seen.body.count) and \(socket.seen.body.count) bytes, first differing at \(String(describing: zip(inProcess.seen.body, socket.seen.body).enumerated().first { $0.element.0 != $0.element.1 }?.offset))"
        )
        #expect(inProcess.seen.error == socket.seen.error)
        #expect(inProcess.seen.journal == socket.seen.journal)
        #expect(inProcess.seen.unmatched == socket.seen.unmatched)
        #expect(socket.connections > 0)
        // AND the in-process road used no socket, unless the reply needs one
        #expect((inProcess.connections > 0) == test.needsSocket, "\(inProcess.connections) connections")
        // AND timing holds on both roads
        #expect(socket.elapsed >= test.atLeast)
        #expect(inProcess.elapsed >= test.atLeast)
        // AND the body is the recorded one, whole, where the case names it
        if let expected = test.expectedBody {
            let whole = socket.seen.body == expected
            #expect(whole, "\(socket.seen.body.count) bytes of \(expected.count)")
        }
        // AND the case answers as it means to (an error only where a fault or a timeout gives one)
        #expect((socket.seen.error != nil) == (test.faults == "reset" || test.timeout < 60), "\(String(describing: socket.seen.error))")
    }
}

/// A client with a data delegate hears a replayed stream part by part, when each is due, on both roads; one with
/// a completion handler gets it whole (the table above).
@Suite struct InProcessStreamDelegateTests {
    /// Collects the parts a task hears, with when each came.
    final class Parts: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        private let received = Lock<[(Data, ContinuousClock.Instant)]>([])
        private let done = Lock<CheckedContinuation<Void, Never>?>(nil)
        private let finished = Lock(false)

        var parts: [(Data, ContinuousClock.Instant)] { received.withLock { $0 } }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let now = ContinuousClock.now
            received.withLock { $0.append((data, now)) }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            finished.withLock { $0 = true }
            done.withLock { $0 }?.resume()
        }

        /// Returns once the task completed.
        func completion() async {
            await withCheckedContinuation { continuation in
                let isDone = finished.withLock { $0 }
                if isDone { continuation.resume() } else { done.withLock { $0 = continuation } }
            }
        }
    }

    @Test(arguments: [false, true])
    func delegateClient_hearsEachPartWhenDue(inProcess: Bool) async throws {
        // GIVEN a recorded stream of two events, the second 200 ms after the first
        let stream = RecordedStream([.init(offsetMs: 0, .event(.init(data: "one"))), .init(offsetMs: 200, .event(.init(data: "two")))])
        let cassette = Cassette(
            name: "events",
            interactions: [
                Interaction(
                    request: RecordedRequest(method: "GET", target: "/events"),
                    response: RecordedResponse(status: 200, headers: ["Content-Type": "text/event-stream"], body: .stream(stream)))
            ])
        try #require(await URLSessionAddedHeaders.learned() != nil)
        var configuration = CassetteServer.Configuration(faults: .none)
        configuration.answersRoutedRequestsInProcess = inProcess
        try await withMockServer(cassettes: [cassette], configuration: configuration) { server in
            let parts = Parts()
            let session = URLSession(configuration: try server.sessionConfiguration(), delegate: parts, delegateQueue: nil)
            defer { session.finishTasksAndInvalidate() }
            // WHEN a delegate-driven task reads it, routed
            let started = ContinuousClock.now
            session.dataTask(with: try #require(URL(string: "https://api.example.test/events"))).resume()
            await parts.completion()
            // THEN it heard the parts apart, the last no sooner than it was due, and nothing else
            let heard = parts.parts
            #expect(heard.count >= 2, "\(heard.count) parts")
            #expect(heard.map(\.0).reduce(Data(), +) == stream.data)
            if let last = heard.last {
                #expect(last.1 - started >= .milliseconds(200))
            }
            #expect((server.http.acceptedConnectionCount > 0) == !inProcess)
        }
    }
}

/// The loopback request that fetches a reply decided in-process: only its own token is answered, and only once.
@Suite struct HandedOverReplyTests {
    @Test func aTokenNoReplyWaitsFor_getsA400SayingSo_andNothingIsJournaled() async throws {
        try await withMockServer(cassettes: [HostRoutingTests.users], configuration: .init(faults: .none)) { server in
            // GIVEN a reply handed over for a routed request, and a request carrying another token
            let token = server.handedOver.put(.response(status: 299, body: Data("decided".utf8)))
            var request = URLRequest(url: server.baseURL!.appendingPathComponent("users/octocat"))
            request.setValue("not-" + token, forHTTPHeaderField: HostRouter.replyHeader)
            // WHEN it reaches the server
            let (data, response) = try await withURLSession { try await $0.httpData(for: request) }
            // THEN it gets a 400 with a sentence, and neither a recorded answer nor the waiting reply
            #expect(response.statusCode == 400)
            #expect(String(decoding: data, as: UTF8.self).contains("no reply waits for the token"))
            #expect(server.journal.entries.isEmpty)
            // AND the right token gets its reply once
            request.setValue(token, forHTTPHeaderField: HostRouter.replyHeader)
            let (decided, first) = try await withURLSession { try await $0.httpData(for: request) }
            #expect(first.statusCode == 299)
            #expect(decided == Data("decided".utf8))
            let (_, again) = try await withURLSession { try await $0.httpData(for: request) }
            #expect(again.statusCode == 400)
        }
    }
}

import Foundation
@testable import MockServer
@testable import MockServerWire
import ServiceReplayShared
import Testing

/// HTTP/1.1 semantics at the wire: keep-alive, pipelining, HTTP/1.0, HEAD, bodies, 100-continue,
/// and what the server adds to responses.
@Suite struct HTTPServerProtocolTests {
    @Test func keepAlive_servesSeveralRequestsOnOneConnection_inOrder() async throws {
        let handler = TestHandler { request, context in
            .response(
                status: 200, headers: ["X-Index": String(context.requestIndex), "X-Connection": String(context.connection.id)],
                body: Data(request.target.utf8))
        }
        try await withServer(handler: handler) { _, url in
            let client = try RawHTTPClient(url)
            var connectionIDs: Set<String> = []
            for index in 0..<5 {
                try client.send("GET /r\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
                let response = try await client.readResponse()
                #expect(response.bodyText == "/r\(index)")
                #expect(response.headers["X-Index"] == String(index))
                connectionIDs.insert(response.headers["X-Connection"] ?? "")
            }
            #expect(connectionIDs.count == 1)
        }
    }

    @Test func pipelinedRequests_inOnePacket_areAnsweredInOrder() async throws {
        try await withServer { _, url in
            // Given ten requests (some with bodies) sent at once
            let client = try RawHTTPClient(url)
            var batch = ""
            for index in 0..<10 {
                batch +=
                    index % 2 == 0
                    ? "GET /p\(index) HTTP/1.1\r\nHost: x\r\n\r\n"
                    : "POST /p\(index) HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n\(index)!"
            }
            try client.send(batch)
            // Then ten answers arrive in request order
            for index in 0..<10 {
                let response = try await client.readResponse()
                #expect(response.headers["X-Target"] == "/p\(index)")
                #expect(response.bodyText == (index % 2 == 0 ? "" : "\(index)!"))
            }
        }
    }

    @Test func pipelinedRequests_withDeferredAnswers_waitForEachOther_andStayInOrder() async throws {
        // Given a handler that answers later from another thread, and counts unanswered requests
        let outstanding = Lock((now: 0, most: 0))
        let handler = TestHandler { request, context in
            outstanding.withLock {
                $0.now += 1; $0.most = max($0.most, $0.now)
            }
            return .deferred { responder in
                Thread {
                    outstanding.withLock { $0.now -= 1 }
                    responder.send(.response(status: 200, body: Data("answer \(context.requestIndex)".utf8)))
                }.start()
            }
        }
        try await withServer(handler: handler) { _, url in
            // When four requests are pipelined at once
            let client = try RawHTTPClient(url)
            try client.send(String(repeating: "GET / HTTP/1.1\r\nHost: x\r\n\r\n", count: 4))
            // Then the answers come in order, and a request reached the handler only after the previous was answered
            for index in 0..<4 {
                #expect(try await client.readResponse().bodyText == "answer \(index)")
            }
            #expect(outstanding.withLock { $0.most } == 1)
        }
    }

    @Test func http10_withoutKeepAlive_isAnsweredThenClosed() async throws {
        try await withServer { _, url in
            let client = try RawHTTPClient(url)
            try client.send("GET /old HTTP/1.0\r\n\r\n")
            let response = try await client.readResponse()
            #expect(response.status == 200)
            #expect(response.head.hasPrefix("HTTP/1.1 200 OK"))
            #expect(response.headers["Connection"] == "close")
            #expect(response.headers["X-Version"] == "HTTP/1.0")
            #expect(await client.readToEnd().ending == .closed)
        }
    }

    @Test func http10_withKeepAlive_staysOpen_andSaysSo() async throws {
        try await withServer { _, url in
            let client = try RawHTTPClient(url)
            for _ in 0..<2 {
                try client.send("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
                let response = try await client.readResponse()
                #expect(response.headers["Connection"] == "keep-alive")
            }
        }
    }

    @Test func connectionClose_fromTheClient_closesAfterTheAnswer() async throws {
        try await withServer { _, url in
            let client = try RawHTTPClient(url)
            try client.send("GET /a HTTP/1.1\r\nConnection: close\r\n\r\nGET /never HTTP/1.1\r\n\r\n")
            let response = try await client.readResponse()
            #expect(response.headers["X-Target"] == "/a")
            #expect(response.headers["Connection"] == "close")
            let rest = await client.readToEnd()
            #expect(rest.bytes.isEmpty)
            #expect(rest.ending == .closed)
        }
    }

    @Test func connectionClose_fromTheHandler_closesAfterTheAnswer() async throws {
        try await withServer(respond: { _ in .response(status: 200, headers: ["Connection": "close"], body: Data("bye".utf8)) }) { _, url in
            let client = try RawHTTPClient(url)
            try client.send("GET / HTTP/1.1\r\n\r\n")
            #expect(try await client.readResponse().bodyText == "bye")
            #expect(await client.readToEnd().ending == .closed)
        }
    }

    @Test(
        arguments: [
            ("GET / HTTP/1.0\r\n\r\n", ["Connection": "keep-alive", "Keep-Alive": "timeout=5"], "close"),
            ("GET / HTTP/1.1\r\n\r\n", ["Connection": "keep-alive", "Keep-Alive": "timeout=5"], nil),
            ("GET / HTTP/1.1\r\n\r\n", ["Connection": "Close"], "close"),
            ("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", ["Connection": "x-custom"], "keep-alive"),
        ] as [(String, HTTPHeaders, String?)])
    func hopByHopHeadersFromTheHandler_areReplacedByTheServersOwn(request: String, headers: HTTPHeaders, connection: String?) async throws {
        // Given a handler that returns recorded hop-by-hop headers
        try await withServer(respond: { _ in .response(status: 200, headers: headers) }) { _, url in
            let client = try RawHTTPClient(url)
            try client.send(request)
            let response = try await client.readResponse()
            // Then the answer has exactly the server's own Connection line and no Keep-Alive
            #expect(response.headers.values(for: "Connection") == (connection.map { [$0] } ?? []))
            #expect(response.headers["Keep-Alive"] == nil)
        }
    }

    @Test func head_hasTheContentLengthOfGet_andNoBody() async throws {
        try await withServer(respond: { _ in .response(status: 200, body: Data(repeating: 65, count: 1234)) }) { _, url in
            let client = try RawHTTPClient(url)
            // When HEAD then GET are pipelined on one connection
            try client.send("HEAD / HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\n\r\n")
            // Then HEAD states the length without sending the bytes, so GET's answer follows directly
            let head = try await client.readResponse(forHEAD: true)
            #expect(head.headers["Content-Length"] == "1234")
            let get = try await client.readResponse()
            #expect(get.body.count == 1234)
        }
    }

    @Test func chunkedRequestBody_isDecoded_withTrailersDiscarded() async throws {
        try await withServer { _, url in
            let client = try RawHTTPClient(url)
            try client.send("POST /c HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nWiki\r\n5;x=y\r\npedia\r\n0\r\nX-T: 1\r\n\r\n")
            let response = try await client.readResponse()
            #expect(response.bodyText == "Wikipedia")
        }
    }

    @Test func largeBody_arrivingInPieces_isReadCompletely() async throws {
        try await withServer { _, url in
            let body = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
            let client = try RawHTTPClient(url)
            try client.send("POST / HTTP/1.1\r\nContent-Length: \(body.count)\r\n\r\n")
            for start in stride(from: 0, to: body.count, by: 65_536) {
                try client.send(body[start..<min(start + 65_536, body.count)])
            }
            #expect(try await client.readResponse().body == body)
        }
    }

    @Test func largeResponses_areWrittenCompletelyWhenTheSocketFillsUp() async throws {
        // Given answers far larger than a socket buffer, pipelined
        let body = Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        try await withServer(respond: { _ in .response(status: 200, body: body) }) { _, url in
            let client = try RawHTTPClient(url)
            try client.send("GET / HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\n\r\n")
            // Then both arrive intact and in order
            #expect(try await client.readResponse(timeout: .seconds(20)).body == body)
            #expect(try await client.readResponse(timeout: .seconds(20)).body == body)
        }
    }

    @Test func expectContinue_gets100BeforeTheBodyIsSent_thenTheAnswer() async throws {
        try await withServer { _, url in
            let client = try RawHTTPClient(url)
            try client.send("PUT /up HTTP/1.1\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
            let interim = try await client.readResponse()
            #expect(interim.status == 100)
            try client.send("hello")
            let final = try await client.readResponse()
            #expect(final.status == 200)
            #expect(final.bodyText == "hello")
        }
    }

    @Test func expectContinue_withABodyOverTheLimit_gets413Directly() async throws {
        try await withServer(.init(maxBodyBytes: 10)) { _, url in
            let client = try RawHTTPClient(url)
            try client.send("PUT /up HTTP/1.1\r\nContent-Length: 11\r\nExpect: 100-continue\r\n\r\n")
            let response = try await client.readResponse()
            #expect(response.status == 413)
            #expect(response.bodyText == "The request body exceeds the limit of 10 bytes.\n")
            #expect(await client.readToEnd().ending == .closed)
        }
    }

    @Test func unknownExpectation_gets417() async throws {
        try await withServer { _, url in
            let client = try RawHTTPClient(url)
            try client.send("PUT /up HTTP/1.1\r\nContent-Length: 1\r\nExpect: magic\r\n\r\n")
            #expect(try await client.readResponse().status == 417)
        }
    }

    @Test func response_getsContentLengthAndDate_butNoServerByDefault() async throws {
        try await withServer(respond: { _ in .response(status: 201, body: Data("abc".utf8)) }) { _, url in
            let client = try RawHTTPClient(url)
            try client.send("GET / HTTP/1.1\r\n\r\n")
            let response = try await client.readResponse()
            #expect(response.head.hasPrefix("HTTP/1.1 201 Created\r\n"))
            #expect(response.headers["Content-Length"] == "3")
            #expect(response.headers["Date"]?.hasSuffix(" GMT") == true)
            #expect(response.headers["Date"]?.count == 29)
            #expect(response.headers["Server"] == nil)
        }
    }

    @Test func serverAndDateHeaders_followTheConfiguration() async throws {
        let configuration = HTTPServer.Configuration(sendsDateHeader: false, serverName: "MockServer")
        try await withServer(configuration, respond: { _ in .response(status: 200) }) { _, url in
            let client = try RawHTTPClient(url)
            try client.send("GET / HTTP/1.1\r\n\r\n")
            let response = try await client.readResponse()
            #expect(response.headers["Server"] == "MockServer")
            #expect(response.headers["Date"] == nil)
            #expect(response.headers["Content-Length"] == "0")
        }
    }

    @Test(arguments: [204, 304])
    func bodilessStatuses_haveNoContentLengthOrBody(status: Int) async throws {
        try await withServer(respond: { _ in .response(status: status, body: Data("ignored".utf8)) }) { _, url in
            let client = try RawHTTPClient(url)
            try client.send("GET / HTTP/1.1\r\n\r\nGET /second HTTP/1.1\r\n\r\n")
            let first = try await client.readResponse()
            #expect(first.status == status)
            #expect(first.headers["Content-Length"] == nil)
            // The next answer starts right after the head: no body bytes were written.
            #expect(try await client.readResponse().status == status)
        }
    }

    @Test func handlersOwnContentLength_isKeptEvenWhenWrong_andTheConnectionCloses() async throws {
        // Given a response promising 100 bytes but carrying 10 (a deliberate truncation)
        let response = HTTPResponse(status: 200, headers: ["Content-Length": "100"], body: Data(repeating: 66, count: 10))
        try await withServer(respond: { _ in .response(response) }) { _, url in
            let client = try RawHTTPClient(url)
            try client.send("GET / HTTP/1.1\r\n\r\n")
            // Then exactly the head and 10 body bytes arrive, and the connection closes
            let (bytes, ending) = await client.readToEnd()
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.contains("Content-Length: 100\r\n"))
            #expect(text.hasSuffix("\r\n\r\n" + String(repeating: "B", count: 10)))
            #expect(text.components(separatedBy: "Content-Length").count == 2)
            #expect(ending == .closed)
        }
    }

    @Test(arguments: [42, 1000, -1])
    func statusOutsideThreeDigits_isSentAs500(status: Int) async throws {
        try await withServer(respond: { _ in .response(status: status) }) { _, url in
            let client = try RawHTTPClient(url)
            try client.send("GET / HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\n\r\n")
            #expect(try await client.readResponse().head.hasPrefix("HTTP/1.1 500 Internal Server Error\r\n"))
            #expect(try await client.readResponse().status == 500)
        }
    }

    @Test func headerValuesWithLineBreaks_cannotSplitTheResponse() async throws {
        try await withServer(respond: { _ in .response(status: 200, headers: ["X-A": "1\r\nX-Injected: yes"]) }) { _, url in
            let client = try RawHTTPClient(url)
            try client.send("GET / HTTP/1.1\r\n\r\n")
            let response = try await client.readResponse()
            #expect(response.headers["X-Injected"] == nil)
            #expect(response.headers["X-A"] == "1X-Injected: yes")
        }
    }

    @Test func clientHalfClose_afterACompleteRequest_stillGetsTheAnswer() async throws {
        try await withServer { _, url in
            let client = try RawHTTPClient(url)
            try client.send("GET /half HTTP/1.1\r\n\r\n")
            client.shutdownWrite()
            #expect(try await client.readResponse().headers["X-Target"] == "/half")
            #expect(await client.readToEnd().ending == .closed)
        }
    }
}

import Foundation
@testable import MockServer
import Testing
import ServiceReplayTestSupport

/// A `HEAD` is answered as HTTP defines it: by the head of the `GET` recorded for the same request, with no
/// body, unless a `HEAD` was recorded.
@Suite struct ReplayHEADTests {
    private static let page = RecordedResponse(
        status: 200, headers: HTTPHeaders(pairs: [("Content-Type", "text/html; charset=utf-8"), ("ETag", #""v1""#)]),
        body: .text("<p>first</p>"))

    private static let cassette = Cassette(
        name: "pages",
        interactions: [
            Interaction(request: RecordedRequest(method: "GET", target: "/page"), response: page),
            Interaction(
                request: RecordedRequest(method: "GET", target: "/page"),
                response: RecordedResponse(status: 200, headers: ["Content-Type": "text/html"], body: .text("<p>second</p>"))),
            Interaction(
                request: RecordedRequest(method: "HEAD", target: "/recorded-head"),
                response: RecordedResponse(status: 200, headers: ["X-Recorded": "head", "Content-Length": "1234"])),
            Interaction(
                request: RecordedRequest(method: "GET", target: "/recorded-head"),
                response: RecordedResponse(status: 200, headers: ["X-Recorded": "get"], body: .text("get"))),
        ])

    @Test func headOfARecordedGET_getsItsStatusAndHeadersWithoutTheBody_andLeavesItsSequenceAlone() async throws {
        try await withMockServer(cassettes: [Self.cassette], configuration: .init(faults: .none, strict: true)) { server in
            // GIVEN one keep-alive connection
            let client = try RawHTTPClient(server.baseURL!)
            // WHEN it asks for the head of the recorded GET
            try client.send("HEAD /page HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let head = try await client.readResponse(forHEAD: true)
            // THEN it gets the GET's status and headers, Content-Length announcing the GET's body
            #expect(head.status == 200)
            #expect(head.headers["Content-Type"] == "text/html; charset=utf-8")
            #expect(head.headers["ETag"] == #""v1""#)
            #expect(head.headers["Content-Length"] == String(Self.page.body.data.count))
            // AND no body: the next answer on the connection starts right after the head, and it is still
            // the first GET of the sequence (the HEAD only looked)
            try client.send("GET /page HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let get = try await client.readResponse()
            #expect(get.status == 200)
            #expect(get.body == Self.page.body.data)
            // AND the journal shows the HEAD, answered by the GET's interaction
            let entries = server.journal.entries
            #expect(entries.map(\.request.method) == ["HEAD", "GET"])
            #expect(entries.map(\.outcome.kind) == [.matched, .matched])
            #expect(entries.map { $0.outcome.interaction?.index } == [0, 0])
            #expect(server.journal.count(of: RequestPattern(method: "HEAD", path: "/page")) == 1)
        }
    }

    @Test func recordedHEAD_answersItsOwnRequest() async throws {
        try await withMockServer(cassettes: [Self.cassette], configuration: .init(faults: .none, strict: true)) { server in
            let response = try await rawExchange(server.baseURL!, "HEAD /recorded-head HTTP/1.1\r\nHost: localhost")
            #expect(response.status == 200)
            #expect(response.headers["X-Recorded"] == "head")
            #expect(response.headers["Content-Length"] == "1234")
            #expect(server.journal.entries.map { $0.outcome.interaction?.index } == [2])
        }
    }

    @Test func headOfAnUnrecordedPath_isStillUnmatched() async throws {
        try await withMockServer(cassettes: [Self.cassette], configuration: .init(faults: .none)) { server in
            let response = try await rawExchange(server.baseURL!, "HEAD /nothing HTTP/1.1\r\nHost: localhost")
            #expect(response.status == 404)
            #expect(response.headers["X-MockServer-Unmatched"] == "1")
            #expect(server.journal.entries.map(\.outcome.kind) == [.unmatched])
        }
    }

    @Test func headOfARecordedGET_underAReplacingFault_getsTheFault_andStrictModeSeesNoUnmatchedRequest() async throws {
        // GIVEN a strict server whose every answer a fault replaces by a 503
        let configuration = CassetteServer.Configuration(faults: .plan(try FaultPlan.parse(specs: "status=503")), strict: true)
        try await withMockServer(cassettes: [Self.cassette], configuration: configuration) { server in
            // WHEN it is asked for the head of a recorded GET
            let response = try await rawExchange(server.baseURL!, "HEAD /page HTTP/1.1\r\nHost: localhost")
            // THEN the fault answers it, and nothing is left for strict mode to report (the block returning
            // without a throw is the other half of this test)
            #expect(response.status == 503)
            #expect(server.journal.entries.map(\.outcome.kind) == [.faultInjected])
            #expect(server.unmatchedRequests.isEmpty)
        }
    }

    @Test func headOfAnUnrecordedPath_underAReplacingFault_stillFailsStrictMode() async throws {
        // GIVEN a strict server whose every answer a fault replaces by a 503
        let configuration = CassetteServer.Configuration(faults: .plan(try FaultPlan.parse(specs: "status=503")), strict: true)
        let error = await #expect(throws: MockServerError.self) {
            try await withMockServer(cassettes: [Self.cassette], configuration: configuration) { server in
                // WHEN it is asked for the head of a path nothing recorded, THEN the fault answers it
                let response = try await rawExchange(server.baseURL!, "HEAD /nothing HTTP/1.1\r\nHost: localhost")
                #expect(response.status == 503)
            }
        }
        // AND strict mode still fails the test, naming the request
        #expect(
            error?.description.hasPrefix("1 request was not matched by any recorded interaction:\n\nNo recorded interaction matches HEAD /nothing") == true,
            "\(String(describing: error))")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"), "curl is not installed at /usr/bin/curl"))
    func curlDashI_getsTheRecordedGETsHead() async throws {
        try await withMockServer(cassettes: [Self.cassette], configuration: .init(faults: .none, strict: true)) { server in
            // WHEN curl -I asks for the recorded page
            let url = server.baseURL!.appendingPathComponent("page").absoluteString
            let (status, output) = try await onThread {
                let pipe = Pipe()
                let curl = try ChildProcess(
                    URL(fileURLWithPath: "/usr/bin/curl"), ["--silent", "--show-error", "-I", "--max-time", "30", url],
                    output: pipe)
                let output = pipe.fileHandleForReading.readDataToEndOfFile()
                curl.waitUntilExit()
                return (curl.terminationStatus, String(decoding: output, as: UTF8.self))
            }
            // THEN it succeeds with the GET's status line and headers
            #expect(status == 0)
            let lines = output.components(separatedBy: "\r\n")
            #expect(lines.first == "HTTP/1.1 200 OK")
            #expect(lines.contains("Content-Length: \(Self.page.body.data.count)"))
            #expect(lines.contains(#"ETag: "v1""#))
            #expect(server.journal.entries.map(\.request.method) == ["HEAD"])
        }
    }
}

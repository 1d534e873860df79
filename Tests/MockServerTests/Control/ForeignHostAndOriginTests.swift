import Foundation
@testable import MockServer
import ServiceReplayShared
import Testing

/// What a web page in the developer's browser can send to a running server, through a real socket: a page that
/// rebinds its name to 127.0.0.1 sends its own name as `Host`; a page of another site sends its `Origin` and
/// `Sec-Fetch-Site: cross-site`. Neither may read the server or change what it serves.
@Suite struct ForeignHostAndOriginTests {
    static let cassette = Cassette(
        name: "shop",
        interactions: [.stub("GET", "/items", json: ["items": [1]]), .stub("GET", "/items", json: ["items": [2]])])

    /// `method target` with the header lines `headers` (Host among them when given), as raw bytes.
    static func send(
        _ base: URL, _ method: String, _ target: String, headers: [String], body: String = ""
    ) async throws -> RawHTTPClient.Response {
        let head = (["\(method) \(target) HTTP/1.1"] + headers + ["Connection: close"]).joined(separator: "\r\n")
        return try await rawExchange(base, head, body: Data(body.utf8))
    }

    /// Runs `body` with a server of ``cassette`` answering `hosts` besides loopback's, its refusals told to `rejections`.
    static func withServer(
        allowing hosts: [String] = [], rejections: RejectionLog? = nil, _ body: (CassetteServer, URL) async throws -> Void
    ) async throws {
        var configuration = CassetteServer.Configuration(faults: .none)
        configuration.allowedHosts = hosts
        configuration.onRejection = rejections?.append
        try await withMockServer(cassettes: [cassette], configuration: configuration) { server in
            try await body(server, try #require(server.baseURL))
        }
    }

    @Test func aRebindingPagesHost_isRefusedOnControlPaths_withASentence_andChangesNothing() async throws {
        try await Self.withServer { server, base in
            let host = "Host: attacker.example:\(base.port!)"
            // When a page that rebound attacker.example reads the journal, sets a plan and resets
            let journal = try await Self.send(base, "GET", "/__mockserver/journal", headers: [host])
            let faults = try await Self.send(base, "PUT", "/__mockserver/faults", headers: [host], body: "status=500")
            let page = try await Self.send(base, "GET", "/__mockserver/", headers: [host])
            // Then each gets 421 with one sentence naming the host and the option that allows it
            for response in [journal, faults, page] {
                #expect(response.status == 421)
                #expect(response.head.hasPrefix("HTTP/1.1 421 Misdirected Request\r\n"))
                let sentence = try #require(
                    (try JSONSerialization.jsonObject(with: response.body) as? [String: String])?["error"], "\(response.bodyText)")
                #expect(sentence.contains("not to the Host 'attacker.example:\(base.port!)'"), "\(sentence)")
                #expect(sentence.contains("--allow-host attacker.example to recorder"), "\(sentence)")
                #expect(sentence.contains("CassetteServer.Configuration.allowedHosts"), "\(sentence)")
                #expect(!response.bodyText.contains("items"), "nothing of the server's state is in the answer")
            }
            // And the plan is untouched
            #expect(server.faultPlan == nil)
        }
    }

    @Test func aRebindingPagesHost_isRefusedOnARecordedPath_andNeitherJournaledNorSequenced() async throws {
        let rejections = RejectionLog()
        try await Self.withServer(rejections: rejections) { server, base in
            // When a rebinding page asks for a recorded answer
            let refused = try await Self.send(base, "GET", "/items", headers: ["Host: attacker.example"])
            // Then it is refused, journaled nowhere, and the first recorded answer is still the next one
            #expect(refused.status == 421)
            #expect(!refused.bodyText.contains("items"))
            #expect(server.journal.recordedCount == 0)
            #expect(server.unmatchedRequests.isEmpty)
            let answered = try await Self.send(base, "GET", "/items", headers: ["Host: 127.0.0.1:\(base.port!)"])
            #expect(answered.status == 200)
            #expect(answered.bodyText == #"{"items":[1]}"#)
            // And the server's observer heard of the refusal, with the request's method and path
            let rejected = try #require(rejections.all.first)
            #expect(rejections.all.count == 1)
            #expect(rejected.status == 421)
            #expect(rejected.request == "GET /items")
            #expect(rejected.reason.contains("'attacker.example'"))
        }
    }

    @Test(arguments: [
        "127.0.0.1:PORT", "127.0.0.1", "localhost:PORT", "LocalHost:PORT", "localhost", "app.localhost:PORT", "[::1]:PORT", "[::1]",
        "127.1.2.3:PORT", "127.0.0.255", "",
    ])
    func loopbackNames_areAnswered(host: String) async throws {
        try await Self.withServer { server, base in
            let headers = ["Host: " + host.replacingOccurrences(of: "PORT", with: String(base.port!))]
            let response = try await Self.send(base, "GET", "/items", headers: headers)
            #expect(response.status == 200, "\(response.bodyText)")
        }
    }

    @Test func aRequestWithoutHost_asHTTP10SendsIt_isAnswered() async throws {
        try await Self.withServer { _, base in
            let response = try await rawExchange(base, "GET /__mockserver/faults HTTP/1.0")
            #expect(response.status == 200)
        }
    }

    @Test(arguments: [
        "attacker.example", "localhost.attacker.example", "127.0.0.1.attacker.example", "localhost.example:PORT", "xlocalhost",
        "127.0.0.256", "127.0.0", "128.0.0.1", "::1", "[::2]", "[::1]x", "localhost:PORTx", "10.0.2.2:PORT", ":PORT",
        "0.0.0.0:PORT", "127.0.0.1.", "127..0.1", "127.0.0.0001", "127.0.0.1x", ".127.0.0.1", "127.0.0.1.1",
    ])
    func otherNames_areRefused(host: String) async throws {
        try await Self.withServer { server, base in
            let headers = ["Host: " + host.replacingOccurrences(of: "PORT", with: String(base.port!))]
            let response = try await Self.send(base, "GET", "/items", headers: headers)
            #expect(response.status == 421)
            #expect(server.journal.recordedCount == 0)
        }
    }

    @Test func allowedHosts_letTheirNamesThrough_withAnyPortAndCase_andNoOthers() async throws {
        let longest = String(repeating: "a", count: 255)
        try await Self.withServer(allowing: ["mockserver", "10.0.2.2", "[fd00::1]", "[::ffff:10.0.2.3]", longest, "Zz-9_.a"]) { _, base in
            for host in [
                "mockserver:8080", "MockServer", "10.0.2.2:\(base.port!)", "[FD00::1]:80", "localhost:\(base.port!)", "[::ffff:10.0.2.3]", longest,
                "zZ-9_.A",
            ] {
                let response = try await Self.send(base, "GET", "/items", headers: ["Host: \(host)"])
                #expect(response.status == 200, "\(host)")
            }
            for host in ["mockserver.example", "other", "10.0.2.3"] {
                let response = try await Self.send(base, "GET", "/items", headers: ["Host: \(host)"])
                #expect(response.status == 421, "\(host)")
            }
        }
        try await Self.withServer(allowing: ["*"]) { _, base in
            let response = try await Self.send(base, "GET", "/items", headers: ["Host: anything.example"])
            #expect(response.status == 200)
        }
    }

    @Test(arguments: ["http://mockserver", "mockserver:8080", "mockserver/", "", "a b", "[::1", "[]", "[::g]", String(repeating: "a", count: 256)])
    func anAllowedHostThatIsNoName_isRefusedWhenTheServerIsCreated(name: String) throws {
        var configuration = CassetteServer.Configuration(faults: .none)
        configuration.allowedHosts = ["mockserver", name]
        let error = #expect(throws: MockServerError.self) { try CassetteServer(cassettes: [], configuration: configuration) }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.description.contains("the allowed host '\(name)' is not a host name or IP address") == true, "\(String(describing: error))")
    }

    @Test func crossSiteWrites_areRefused_andChangeNothing() async throws {
        try await Self.withServer { server, base in
            let host = "Host: 127.0.0.1:\(base.port!)"
            // Given a plan in force and one request journaled and sequenced
            let planned = try await Self.send(base, "PUT", "/__mockserver/faults", headers: [host], body: "status=503,path=/nothing")
            #expect(planned.status == 200)
            let first = try await Self.send(base, "GET", "/items", headers: [host])
            #expect(first.bodyText == #"{"items":[1]}"#)
            // When pages of other origins reset, replace and clear, as a browser sends it without asking first
            let cases: [(String, String, [String], String)] = [
                ("POST", "/__mockserver/reset", ["Origin: http://attacker.example", "Content-Type: text/plain"], "the origin http://attacker.example"),
                ("PUT", "/__mockserver/faults", ["Origin: http://attacker.example"], "the origin http://attacker.example"),
                ("DELETE", "/__mockserver/faults", ["Origin: null"], "the origin null"),
                ("POST", "/__mockserver/reset", ["Origin: http://localhost:\(base.port!)"], "the origin http://localhost"),
                ("POST", "/__mockserver/reset", ["Origin: http://127.0.0.1:\(base.port!)/x"], "the origin http://127.0.0.1"),
                ("PUT", "/__mockserver/faults", ["Sec-Fetch-Site: same-site", "Origin: http://127.0.0.1:\(base.port!)"], "(Sec-Fetch-Site: same-site)"),
            ]
            for (method, target, headers, named) in cases {
                let response = try await Self.send(base, method, target, headers: [host] + headers, body: "status=500")
                // Then each is a 403 with a sentence naming what it refused and from where
                #expect(response.status == 403, "\(method) \(headers)")
                let sentence = (try? JSONSerialization.jsonObject(with: response.body) as? [String: String])?["error"] ?? ""
                #expect(sentence.hasPrefix("the control API refuses \(method) \(target) from "), "\(sentence)")
                #expect(sentence.contains(named), "\(sentence)")
            }
            // And the plan, the journal and the sequence are as they were
            #expect(server.faultPlan?.rules.map(\.description) == ["status=503,path=/nothing"])
            #expect(server.journal.recordedCount == 1)
            let second = try await Self.send(base, "GET", "/items", headers: [host])
            #expect(second.bodyText == #"{"items":[2]}"#, "the sequence went on from where it was")
        }
    }

    @Test func aPageOfAnotherSite_isRefusedOnEveryPath_andMovesNoSequence() async throws {
        let rejections = RejectionLog()
        try await Self.withServer(rejections: rejections) { server, base in
            let host = "Host: 127.0.0.1:\(base.port!)"
            // When a page of another site asks for a recorded answer (no-cors, so it sends no Origin) and resets
            let read = try await Self.send(base, "GET", "/items", headers: [host, "Sec-Fetch-Site: Cross-Site", "Sec-Fetch-Mode: no-cors"])
            let reset = try await Self.send(base, "POST", "/__mockserver/reset", headers: [host, "Sec-Fetch-Site: cross-site"])
            // Then both are refused with one sentence, and nothing moved: the journal is empty, the sequence at its start
            for (response, what) in [(read, "GET /items"), (reset, "POST /__mockserver/reset")] {
                #expect(response.status == 403)
                let sentence = (try? JSONSerialization.jsonObject(with: response.body) as? [String: String])?["error"] ?? ""
                #expect(sentence.hasPrefix("this server refuses \(what) from a web page of another site (Sec-Fetch-Site: cross-site)"), "\(sentence)")
            }
            #expect(server.journal.recordedCount == 0)
            #expect(rejections.all.map(\.request) == ["GET /items", "POST /__mockserver/reset"])
            #expect(rejections.all.map(\.status) == [403, 403])
            let first = try await Self.send(base, "GET", "/items", headers: [host])
            #expect(first.bodyText == #"{"items":[1]}"#, "the refused request did not move the sequence")
            // While the same site (a front end on another port), the same origin and what the user typed are answered
            for site in ["same-site", "same-origin", "none"] {
                let response = try await Self.send(base, "GET", "/items", headers: [host, "Sec-Fetch-Site: \(site)"])
                #expect(response.status == 200, "\(site)")
            }
        }
    }

    @Test func sameOriginWrites_andClientsWithoutOrigin_areAnswered() async throws {
        try await Self.withServer { server, base in
            let port = base.port!
            // The journal page's own write, opened at 127.0.0.1 or at localhost, and a write from curl
            let cases: [[String]] = [
                ["Host: 127.0.0.1:\(port)", "Origin: http://127.0.0.1:\(port)", "Sec-Fetch-Site: same-origin"],
                ["Host: localhost:\(port)", "Origin: HTTP://LOCALHOST:\(port)"],
                ["Host: 127.0.0.1:\(port)", "Sec-Fetch-Site: none"],
                ["Host: 127.0.0.1:\(port)"],
            ]
            for (index, headers) in cases.enumerated() {
                let response = try await Self.send(base, "PUT", "/__mockserver/faults", headers: headers, body: "status=50\(index)")
                #expect(response.status == 200, "\(headers): \(response.bodyText)")
                #expect(server.faultPlan?.rules.map(\.description) == ["status=50\(index)"])
            }
            // And a page of another site may still read (its browser keeps the answer from it)
            let read = try await Self.send(base, "GET", "/__mockserver/faults", headers: ["Host: 127.0.0.1:\(port)", "Origin: http://attacker.example"])
            #expect(read.status == 200)
        }
    }

    @Test func aCapture_refusesAForeignHost_andNothingReachesTheUpstream() async throws {
        try await withUpstream { upstream, log in
            try await withRecordingServer(upstream: upstream) { server, base in
                // When a rebinding page sends a request through a running capture
                let refused = try await Self.send(base, "GET", "/json", headers: ["Host: attacker.example:\(base.port!)"])
                // Then it is refused, the upstream never sees it and nothing is recorded
                #expect(refused.status == 421)
                // And so is a page of another site that reaches it by its own address
                let crossSite = try await Self.send(base, "GET", "/json", headers: ["Host: 127.0.0.1:\(base.port!)", "Sec-Fetch-Site: cross-site"])
                #expect(crossSite.status == 403)
                #expect(log.all.isEmpty)
                #expect(server.recordedCassette?.interactions.isEmpty != false)
                // While a request addressed to the capture's own address is forwarded and recorded
                let forwarded = try await Self.send(base, "GET", "/json", headers: ["Host: 127.0.0.1:\(base.port!)"])
                #expect(forwarded.status == 200)
                #expect(log.all.count == 1)
                #expect(server.recordedCassette?.interactions.count == 1)
            }
        }
    }
}

/// The rejections a server reported through its `onRejection` observer.
final class RejectionLog: Sendable {
    private let rejections = Lock<[RejectedRequest]>([])

    @Sendable func append(_ rejection: RejectedRequest) {
        rejections.withLock { $0.append(rejection) }
    }

    var all: [RejectedRequest] { rejections.withLock { $0 } }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import MockServer
import Testing
import ServiceReplayTestSupport

@Suite(.ownEnvironment) struct CassetteServerTests {
    private func get(_ session: URLSession, _ base: URL, _ target: String) async throws -> (Data, HTTPURLResponse) {
        try await session.httpData(for: URLRequest(url: URL(string: target, relativeTo: base)!))
    }

    @Test func strictReport_redactsTheUnmatchedRequestsSecrets_asTheControlAPIDoes() async throws {
        // GIVEN an unmatched request carrying a token and a signature
        let server = try CassetteServer(cassettes: [Cassette(name: "c", interactions: [.stub("GET", "/a", text: "a")])])
        let base = try await server.start()
        defer { Task { await server.stop() } }
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        _ = try await get(session, base, "/b?access_token=TOPSECRET&X-Amz-Signature=SIGSECRET")
        // WHEN strict mode reports it THEN the report, which goes to test logs and CI output, holds neither
        #expect {
            try server.verifyNoUnmatchedRequests()
        } throws: { error in
            let text = "\(error)"
            return text.contains("GET /b?access_token=%3Credacted%3E&X-Amz-Signature=%3Credacted%3E") && !text.contains("TOPSECRET")
                && !text.contains("SIGSECRET")
        }
    }

    @Test func recordedCassette_isReplayedOverHTTP_byteForByte() async throws {
        // Given the bundled GitHub cassette, when its first request is sent through URLSession,
        // then status, Link header and body are the recorded ones.
        let recordings = try #require(RecordingsFolder.nearest(to: #filePath))
        let cassette = try #require(try RecordingsFolder.cassettes(named: "github/users", in: recordings).first)
        guard case .response(let recorded) = cassette.interactions[0].outcome else { Issue.record("not a response"); return }
        try await withMockServer(replaying: "github/users", configuration: .init(faults: .none)) { server in
            try await withURLSession { session in
                let (body, response) = try await get(session, server.baseURL!, cassette.interactions[0].request.target)
                #expect(response.statusCode == recorded.status)
                #expect(response.value(forHTTPHeaderField: "Link") == recorded.headers["Link"])
                #expect(body == recorded.replayResponse.body)
            }
            try server.journal.verify(.get("/users"), calledTimes: 1)
        }
    }

    @Test func unmatchedRequest_gets404NamingTheClosest_andStrictModeThrowsTheSameText() async throws {
        let configuration = CassetteServer.Configuration(faults: .none, strict: true)
        let error = await #expect(throws: MockServerError.self) {
            try await withMockServer(replaying: "github/users", configuration: configuration) { server in
                try await withURLSession { session in
                    let (body, response) = try await get(session, server.baseURL!, "/users?since=0&per_page=4")
                    #expect(response.statusCode == 404)
                    #expect(response.value(forHTTPHeaderField: "X-MockServer-Unmatched") == "1")
                    #expect(String(decoding: body, as: UTF8.self).contains("per_page"))
                }
            }
        }
        let message = try #require(error?.description)
        #expect(message.hasPrefix("1 request was not matched by any recorded interaction:\n\n"))
        #expect(message.contains("GET /users?since=0&per_page=4"))
        #expect(message.contains("per_page"))
    }

    @Test func configurationRules_areMergedWithTheCassettesOwn_neitherReplacingTheOther() async throws {
        // GIVEN a cassette that ignores the query parameter `_`, served with a configuration that ignores `ts`
        let cassette = Cassette(
            name: "c", matching: MatchRules(ignoredQueryParameters: ["_"]),
            interactions: [.stub("GET", "/feeds?_=1&ts=1&page=1")])
        let configuration = CassetteServer.Configuration(matching: MatchRules(ignoredQueryParameters: ["ts"]), faults: .none)
        try await withMockServer(cassettes: [cassette], configuration: configuration) { server in
            try await withURLSession { session in
                // WHEN both ignored parameters differ, THEN it matches; WHEN a compared one differs, THEN it does not
                let (_, both) = try await get(session, server.baseURL!, "/feeds?_=9&ts=5&page=1")
                let (_, compared) = try await get(session, server.baseURL!, "/feeds?_=9&ts=5&page=2")
                #expect(both.statusCode == 200)
                #expect(compared.statusCode == 404)
            }
        }
    }

    @Test func strictMode_seesAnUnrecordedRequest_evenWhenAFaultReplacedItsAnswer() async throws {
        // GIVEN a strict server whose every answer a fault replaces by a 503
        let configuration = CassetteServer.Configuration(faults: .plan(try FaultPlan.parse(specs: "status=503")), strict: true)
        let error = await #expect(throws: MockServerError.self) {
            try await withMockServer(replaying: "github/users", configuration: configuration) { server in
                try await withURLSession { session in
                    // WHEN a request no interaction holds is sent, THEN it gets the fault's 503
                    let (_, response) = try await get(session, server.baseURL!, "/users/nobody-recorded")
                    #expect(response.statusCode == 503)
                }
            }
        }
        // AND the test still fails, naming the request the cassette does not hold
        #expect(
            error?.description.hasPrefix(
                "1 request was not matched by any recorded interaction:\n\nNo recorded interaction matches GET /users/nobody-recorded.") == true)
    }

    @Test func nonStrictServer_answers404_butDoesNotThrow() async throws {
        let misses = try await withMockServer(cassettes: [], configuration: .init(faults: .none)) { server in
            try await withURLSession { session in
                let (_, response) = try await get(session, server.baseURL!, "/nothing")
                #expect(response.statusCode == 404)
            }
            return server.unmatchedRequests.count
        }
        #expect(misses == 1)
    }

    @Test func strictMode_seesEveryUnmatchedRequest_whateverTheJournalKeeps() async throws {
        // GIVEN a strict server whose journal keeps a single entry
        let configuration = CassetteServer.Configuration(faults: .none, strict: true, journalCapacity: 1)
        let count = UnmatchedRequests.keptLimit + 3
        let error = await #expect(throws: MockServerError.self) {
            try await withMockServer(cassettes: [], configuration: configuration) { server in
                // WHEN more unmatched requests arrive than the server lists
                try await withURLSession { session in
                    for index in 0..<count {
                        _ = try await get(session, server.baseURL!, "/missing/\(index)")
                    }
                }
                #expect(server.journal.entries.count == 1)
                #expect(server.unmatchedRequests.count == UnmatchedRequests.keptLimit)
                #expect(server.unmatchedRequests.first?.target == "/missing/0")
            }
        }
        // THEN strict mode counts them all, lists the first ones and says how many more there were
        let message = try #require(error?.description)
        #expect(message.hasPrefix("\(count) requests were not matched by any recorded interaction:\n\nNo recorded interaction matches GET /missing/0"))
        #expect(message.hasSuffix("\n\n… and 3 more"))
    }

    @Test func handWrittenInteraction_answersBeforeCassettes() async throws {
        try await withMockServer(replaying: "github/users", configuration: .init(faults: .none)) { server in
            server.add(.stub("GET", "/users/octocat", status: 418, json: .object(["message": .string("teapot")])))
            try await withURLSession { session in
                let (body, response) = try await get(session, server.baseURL!, "/users/octocat")
                #expect(response.statusCode == 418)
                #expect(String(decoding: body, as: UTF8.self) == #"{"message":"teapot"}"#)
            }
        }
    }

    @Test func everyInteractionUsed_listsTheUnusedOnes() async throws {
        try await withMockServer(replaying: "feed/feeds", configuration: .init(faults: .none)) { server in
            try await withURLSession { session in
                _ = try await get(session, server.baseURL!, "/feeds?page=1&pageSize=3")
            }
            let error = #expect(throws: MockServerError.self) { try server.verifyEveryInteractionUsed() }
            #expect(error?.description.contains("/feeds?page=2&pageSize=3") == true)
        }
    }

    @Test func missingCassette_namesTheFileAndTheCommandThatRecordsIt() async throws {
        let folder = try #require(RecordingsFolder.nearest(to: #filePath))
        let error = await #expect(throws: MockServerError.self) {
            try await withMockServer(replaying: "nope/missing") { _ in }
        }
        #expect(
            error?.description
                == "no cassette nope/missing at \(folder.path)/nope/missing.json; record it with `MOCKSERVER_RECORD=once swift test --filter missingCassette_namesTheFileAndTheCommandThatRecordsIt` (from xcodebuild, `TEST_RUNNER_MOCKSERVER_RECORD=once xcodebuild test ...`)"
        )
    }

    @Test(arguments: [1]) func missingCassette_inATestWithParameters_namesTheTestAsFilterTakesIt(id: Int) async throws {
        // GIVEN a parameterized test, whose #function is `missingCassette_..._namesTheTestAsFilterTakesIt(id:)`
        let folder = try #require(RecordingsFolder.nearest(to: #filePath))
        let error = await #expect(throws: MockServerError.self) {
            try await withMockServer(replaying: "nope/missing") { _ in }
        }
        // THEN the command names the test without its parameter list, which `--filter` would read as a regex group
        #expect(
            error?.description
                == "no cassette nope/missing at \(folder.path)/nope/missing.json; record it with `MOCKSERVER_RECORD=once swift test --filter missingCassette_inATestWithParameters_namesTheTestAsFilterTakesIt` (from xcodebuild, `TEST_RUNNER_MOCKSERVER_RECORD=once xcodebuild test ...`)"
        )
    }

    @Test func serverIsStopped_whenTheBodyThrows() async throws {
        struct Boom: Error {}
        var captured: CassetteServer?
        await #expect(throws: Boom.self) {
            try await withMockServer(cassettes: [], configuration: .init(faults: .none)) { server in
                captured = server
                throw Boom()
            }
        }
        #expect(captured?.baseURL == nil)
    }
}

import Foundation
@testable import MockServer
import Testing

/// The endpoints × fault kinds report (`MOCKSERVER_FAULT_COVERAGE`) and the fault log (`MOCKSERVER_FAULT_LOG`)
/// as servers write them when they stop: what is counted, how the files add up across servers, and the table.
@Suite struct CoverageReportTests {
    /// A folder of its own for one test's files.
    private static func folder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("coverage-\(UUID().uuidString)", isDirectory: true)
    }

    /// Runs a server with stubs at `paths` under `specs`, sends each of `requests` on a connection of its own
    /// (`Connection: close`, read to its end), stops it, and returns it for its journal.
    private static func served(_ specs: String, paths: [String] = [], requests: [String]) async throws -> CassetteServer {
        let server = try CassetteServer(cassettes: [], configuration: .init(faults: .plan(try FaultPlan.parse(specs: specs, seed: 1))))
        for path in paths { server.add(.stub("GET", path, text: path)) }
        let base = try await server.start()
        for path in requests {
            let client = try RawHTTPClient(base)
            // A refused connection may be closed before the request is written: that is the fault.
            try? client.send("GET \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            _ = await client.readToEnd()
        }
        await server.stop()
        return server
    }

    @Test func refusedConnections_addUpAcrossServers_inTheJSONAndTheTable() async throws {
        // GIVEN two servers that refuse every connection, one refusing two and the other three
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = folder.appendingPathComponent("coverage.json")
        let log = folder.appendingPathComponent("faults.jsonl")
        let environment = [FaultCoverage.reportVariable: report.path, FaultCoverage.logVariable: log.path]
        for count in [2, 3] {
            let server = try await Self.served("refuse", requests: Array(repeating: "/x", count: count))
            #expect(server.refusedConnections.count == count)
            try FaultCoverage.write(server, environment: environment)
        }
        // WHEN the files are read
        let json = String(decoding: try Data(contentsOf: report), as: UTF8.self)
        let table = try String(contentsOf: folder.appendingPathComponent("coverage.txt"), encoding: .utf8)
        // THEN the JSON and the table's refuse line hold the sum, and no endpoint (nothing was read)
        #expect(try CoverageReport.read(from: report).refusedConnections == 5)
        #expect(json.contains("\"refusedConnections\" : 5"), "\(json)")
        #expect(
            table == """
                endpoint | requests | fault | family | times | server sent
                ---------+----------+-------+--------+-------+------------
                refuse: 5 connections closed on accept (before any endpoint)
                every endpoint met a network-level fault

                """)
        // AND the log holds each refused connection, numbered per server
        #expect(
            String(decoding: try Data(contentsOf: log), as: UTF8.self) == """
                {"connection":1,"fault":"refuse"}
                {"connection":2,"fault":"refuse"}
                {"connection":1,"fault":"refuse"}
                {"connection":2,"fault":"refuse"}
                {"connection":3,"fault":"refuse"}

                """)
    }

    @Test func table_listsEachEndpointsFaults_withWhatWasSent_mostFrequentFirst_andFlagsThoseNoNetworkFaultReached() async throws {
        // GIVEN a server where /users/1 always gets a 503, /users/2 a 500, /users/3 a reset, and /feeds nothing
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = folder.appendingPathComponent("deep/er/coverage.json")
        let server = try await Self.served(
            "status=503,path=/users/1; status=500,path=/users/2; reset,path=/users/3",
            paths: ["/users/1", "/users/2", "/users/3", "/feeds"],
            requests: ["/users/1", "/users/2", "/users/1", "/users/3", "/feeds"])
        // WHEN its coverage is written (the report's folders made as needed)
        try FaultCoverage.write(server, environment: [FaultCoverage.reportVariable: report.path])
        let coverage = try CoverageReport.read(from: report)
        // THEN the numbered paths are one endpoint, with each fault kind met, its family and what was sent
        #expect(
            coverage.endpoints["GET /users/{n}"]
                == CoverageReport.Endpoint(
                    endpoint: "GET /users/{n}", requests: 4,
                    faults: [
                        "status": CoverageReport.Met(family: "http", count: 3, outcomes: ["status 503": 2, "status 500": 1]),
                        "reset": CoverageReport.Met(family: "network", count: 1, outcomes: ["no response": 1]),
                    ]))
        #expect(coverage.endpoints["GET /feeds"] == CoverageReport.Endpoint(endpoint: "GET /feeds", requests: 1))
        #expect(coverage.refusedConnections == 0)
        #expect(
            try String(contentsOf: CoverageReport.tableFile(beside: report), encoding: .utf8) == """
                endpoint                       | requests | fault  | family  | times | server sent
                -------------------------------+----------+--------+---------+-------+-----------------------------
                GET /feeds  [no network fault] | 1        | (none) |         |       |
                GET /users/{n}                 | 4        | reset  | network | 1     | no response ×1
                                               |          | status | http    | 3     | status 503 ×2, status 500 ×1
                never tested against a network-level fault: GET /feeds

                """)
    }

    @Test func eachGraphQLOperation_isAnEndpointOfItsOwn() async throws {
        // GIVEN a GraphQL API whose User operation met a GraphQL error, and whose Viewer met none
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = folder.appendingPathComponent("coverage.json")
        func operation(_ name: String) -> Interaction {
            .stub("POST", "/graphql", json: ["data": [:]], requestBody: .json(["query": .string("query \(name) { a }")]))
        }
        let server = try CassetteServer(
            cassettes: [Cassette(name: "gql", interactions: [operation("User"), operation("Viewer")])],
            configuration: .init(faults: .plan(try FaultPlan.parse(specs: "graphql-error=FORBIDDEN,operation=User"))))
        let base = try await server.start()
        for name in ["User", "Viewer", "User"] {
            _ = try await rawExchange(base, "POST /graphql HTTP/1.1\r\nHost: localhost", body: Data(#"{"query":"query \#(name) { a }"}"#.utf8))
        }
        await server.stop()
        // WHEN its coverage is written
        try FaultCoverage.write(server, environment: [FaultCoverage.reportVariable: report.path])
        // THEN each operation is an endpoint, not one POST /graphql
        let coverage = try CoverageReport.read(from: report)
        #expect(coverage.endpoints.keys.sorted() == ["POST /graphql (GraphQL User)", "POST /graphql (GraphQL Viewer)"])
        #expect(
            coverage.endpoints["POST /graphql (GraphQL User)"]?.faults
                == ["graphql-error": CoverageReport.Met(family: "service", count: 2, outcomes: ["status 200": 2])])
        #expect(coverage.endpoints["POST /graphql (GraphQL Viewer)"]?.requests == 1)
    }

    @Test func aSecondServer_addsToTheCountsTheFirstWrote() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = folder.appendingPathComponent("coverage.json")
        for _ in 1...2 {
            let server = try await Self.served("reset,path=/users/1", paths: ["/users/1", "/users/2"], requests: ["/users/1", "/users/2"])
            try FaultCoverage.write(server, environment: [FaultCoverage.reportVariable: report.path])
        }
        let coverage = try CoverageReport.read(from: report)
        #expect(coverage.endpoints["GET /users/{n}"]?.requests == 4)
        #expect(coverage.endpoints["GET /users/{n}"]?.faults["reset"] == CoverageReport.Met(family: "network", count: 2, outcomes: ["no response": 2]))
        #expect(coverage.untestedAgainstNetworkFaults == [])
        #expect(
            try String(contentsOf: CoverageReport.tableFile(beside: report), encoding: .utf8)
                .hasSuffix("\nevery endpoint met a network-level fault\n"))
    }

    @Test func faultLog_ranksEachDecisionAmongTheRequestsWithItsMethodAndPath_andAppendsAcrossServers() async throws {
        // GIVEN servers failing every other /a with a 503 (its 2nd and 4th), /b untouched in between
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("faults.jsonl")
        for _ in 1...2 {
            let server = try await Self.served(
                "status=503,when=every:2,path=/a", paths: ["/a", "/b"],
                requests: ["/a", "/b", "/a", "/b", "/a", "/a?x=1"])
            try FaultCoverage.write(server, environment: [FaultCoverage.logVariable: log.path])
        }
        // THEN each decision names the rule as the plan spells it and the request's rank by method and path
        // (the query left out), one JSON line each, the second server's after the first's
        // (JSONEncoder escapes slashes, on every platform.)
        let line =
            #"{"fault":"status=503,when=every:2,path=\/a","method":"GET","nth":2,"path":"\/a"}"# + "\n"
            + #"{"fault":"status=503,when=every:2,path=\/a","method":"GET","nth":4,"path":"\/a"}"# + "\n"
        let text = String(decoding: try Data(contentsOf: log), as: UTF8.self)
        #expect(text == line + line, "\(text)")
        #expect(try FaultLogLine.read(from: log).count == 4)
        // AND no report is written when none is asked for
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("faults.txt").path))
    }

    @Test func emptyVariables_nameNoFile() async throws {
        // An empty value is no file: writing to the path "" would throw.
        let server = try await Self.served("reset", requests: ["/x"])
        #expect(throws: Never.self) {
            try FaultCoverage.write(server, environment: [FaultCoverage.reportVariable: "", FaultCoverage.logVariable: ""])
        }
    }

    @Test func ruleSpec_isTheTextBetweenTheFirstAndLastQuote() {
        #expect(FaultCoverage.ruleSpec(in: "rule 1 'status=503,path=/a' on match 2") == "status=503,path=/a")
        #expect(FaultCoverage.ruleSpec(in: "rule 'it's' here") == "it's")
        #expect(FaultCoverage.ruleSpec(in: "one ' quote") == "one ' quote")
        #expect(FaultCoverage.ruleSpec(in: "no quote") == "no quote")
    }

    @Test func pattern_turnsOnlyAllASCIIDigitSegmentsIntoN() {
        #expect(CoverageReport.pattern(of: "/users/42/repos/7") == "/users/{n}/repos/{n}")
        #expect(CoverageReport.pattern(of: "/users/٣/x1/") == "/users/٣/x1/")
        #expect(CoverageReport.pattern(of: "/") == "/")
    }
}

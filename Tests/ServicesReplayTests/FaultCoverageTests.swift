import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import MockServer
import ServiceKit
import Testing

/// The endpoints × fault kinds report (`MOCKSERVER_FAULT_COVERAGE`), gathered from the services' servers as
/// they stop.
@Suite struct FaultCoverageTests {
    @Test func servicesUnderFaults_listEachEndpointWithTheFaultsItMet_andFlagThoseNoNetworkFaultReached() async throws {
        // GIVEN a report file, and the GitHub user call run under three faults of the three families, and the
        // feed call under none, each server adding itself to the report as it stops
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coverage-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = folder.appendingPathComponent("coverage.json")
        let environment = [FaultCoverage.reportVariable: report.path]
        for (call, fault) in [
            (ServiceCall.gitHubUser, "reset"), (.gitHubUser, "status=503"), (.gitHubUser, "service-error=not_found"),
            (.feed, ""),
        ] {
            let server = try await withReplay(call.cassette, faults: .specs(fault)) { replay in
                _ = await call.perform(replay.client)
                return replay.server
            }
            FaultCoverage.record(server, environment: environment)
        }

        // WHEN the report is read
        let coverage = try CoverageReport.read(from: report)
        let table = try String(contentsOf: folder.appendingPathComponent("coverage.txt"), encoding: .utf8)

        // THEN the user endpoint met each fault once, with what the server sent, and the feed is flagged
        let user = try #require(coverage.endpoints["GET /users/octocat"])
        #expect(user.requests == 3)
        #expect(user.faults["reset"] == CoverageReport.Met(family: "network", count: 1, outcomes: ["no response": 1]))
        #expect(user.faults["status"] == CoverageReport.Met(family: "http", count: 1, outcomes: ["status 503": 1]))
        #expect(user.faults["service-error"] == CoverageReport.Met(family: "service", count: 1, outcomes: ["status 404": 1]))
        #expect(coverage.untestedAgainstNetworkFaults == ["GET /feeds"])
        #expect(table.contains("GET /feeds  [no network fault] | 1        | (none)"), "\(table)")
        #expect(table.contains("never tested against a network-level fault: GET /feeds"), "\(table)")
    }

    @Test func aReportPathThatCannotBeWritten_isOneSentenceNamingTheFile() async throws {
        // GIVEN a report path under a regular file, which no folder can be made at
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("coverage-\(UUID().uuidString)")
        try Data().write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let report = file.appendingPathComponent("coverage.json")

        // WHEN a faulted server's coverage is written there
        let error = try await coverageError(writingTo: report)

        // THEN the error names the file and the system's reason in one line, not Foundation's error dump
        #expect(error?.code == .fileSystem)
        let text = error.map(String.init(describing:)) ?? ""
        #expect(text.hasPrefix(report.path + ": cannot be written ("), "\(text)")
        #expect(!text.contains("could not be completed"), "\(text)")
        #expect(!text.contains("Error Domain") && !text.contains("\n"), "\(text)")
    }

    @Test func aTablePathThatCannotBeWritten_isNamedItself() async throws {
        // GIVEN a report folder where the table's name is taken by a folder
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coverage-\(UUID().uuidString)")
        let report = folder.appendingPathComponent("coverage.json")
        let table = CoverageReport.tableFile(beside: report)
        try FileManager.default.createDirectory(at: table, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        // WHEN a faulted server's coverage is written there
        let error = try await coverageError(writingTo: report)

        // THEN the error names the table, not the report written before it, and gives the system's reason
        let text = error.map(String.init(describing:)) ?? ""
        #expect(text.hasPrefix(table.path + ": cannot be written ("), "\(text)")
        #expect(!text.contains("could not be completed"), "\(text)")
        #expect(FileManager.default.fileExists(atPath: report.path))
    }

    /// What writing the coverage of a server that met a fault to `report` throws.
    private func coverageError(writingTo report: URL) async throws -> MockServerError? {
        let server = try await withReplay(ServiceCall.gitHubUser.cassette, faults: .specs("reset")) { replay in
            _ = await ServiceCall.gitHubUser.perform(replay.client)
            return replay.server
        }
        return #expect(throws: MockServerError.self) {
            try FaultCoverage.write(server, environment: [FaultCoverage.reportVariable: report.path])
        }
    }

    @Test(arguments: [
        ("/users/42/repos", "/users/{n}/repos"),
        ("/library/books/7.json", "/library/books/{n}.json"),
        ("/src/7.c", "/src/{n}.c"),
        ("/videos/7.mpeg4", "/videos/{n}.mpeg4"),
        ("/videos/7.jsonld", "/videos/7.jsonld"),
        ("/items/-550e8400-e29b-41d4-a716-446655440000", "/items/-550e8400-e29b-41d4-a716-446655440000"),
        ("/items/550e8400-e29b-41d4-a716-446655440000", "/items/{id}"),
        ("/items/550E8400-E29B-41D4-A716-446655440000.xml", "/items/{id}.xml"),
        ("/commits/3f786850e387550fdab836ed7e6dc881de23001b", "/commits/{id}"),
        ("/files/dGhpcy1pcy1hLXRva2VuXzEyMw-AbC9", "/files/{id}"),
        // Not identifiers: a version with a dot, words, slugs, short hex words, lower-case tokens, a bare extension
        ("/2.3/questions", "/2.3/questions"),
        ("/repos/octocat/hello-world", "/repos/octocat/hello-world"),
        ("/articles/my-first-post-of-2024-on-swift", "/articles/my-first-post-of-2024-on-swift"),
        ("/colors/beef", "/colors/beef"),
        ("/deadbeefcafebabe", "/deadbeefcafebabe"),
        ("/.well-known/openid", "/.well-known/openid"),
        ("/v1.json", "/v1.json"),
        ("/7.", "/7."),
        ("/7.toolong", "/7.toolong"),
    ])
    func segmentsThatPickOneResource_makeOneEndpoint(path: String, pattern: String) {
        #expect(CoverageReport.pattern(of: path) == pattern)
    }

    @Test func booksByNumberWithAnExtension_areOneEndpoint_testedOnceAgainstANetworkFault() async throws {
        // GIVEN three books by number with an extension, one of them read under a network fault
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coverage-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = folder.appendingPathComponent("coverage.json")
        let books = Cassette(name: "books", interactions: ["1", "7", "99"].map { .stub("GET", "/library/books/\($0).json", json: ["id": 1]) })
        for (book, fault) in [("1", "reset"), ("7", ""), ("99", "")] {
            let server = try await withMockServer(cassettes: [books], configuration: .init(faults: .specs(fault))) { server in
                let url = try server.baseURL.orThrow("no base URL").appendingPathComponent("library/books/\(book).json")
                _ = try? await URLSession(configuration: .ephemeral).data(from: url)
                return server
            }
            FaultCoverage.record(server, environment: [FaultCoverage.reportVariable: report.path])
        }

        // THEN the report has one endpoint for them, which met the network fault, and flags nothing
        let coverage = try CoverageReport.read(from: report)
        #expect(coverage.endpoints.keys.sorted() == ["GET /library/books/{n}.json"])
        #expect(coverage.endpoints["GET /library/books/{n}.json"]?.requests == 3)
        #expect(coverage.untestedAgainstNetworkFaults.isEmpty)
    }
}

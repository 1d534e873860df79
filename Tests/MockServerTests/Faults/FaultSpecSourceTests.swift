import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import MockServer
@testable import MockServerTesting
import Testing

/// `FaultSource.specs`: fault specs given as text are read when the server is created, so a mistake fails the
/// one test that uses them, with the parse's sentence, where `.plan(try! FaultPlan.parse(...))` in a trait's
/// arguments ended the whole test process at discovery.
@Suite struct FaultSpecSourceTests {
    static let cassette = Cassette(name: "specs", interactions: [.stub("GET", "/json", json: ["ok": true])])

    @Test func specs_areTheParsedPlan_andApply() async throws {
        try await withMockServer(cassettes: [Self.cassette], configuration: .init(faults: .specs("status=503,path=/json", seed: 9))) { server in
            #expect(server.faultPlan == (try FaultPlan.parse(specs: "status=503,path=/json", seed: 9)))
            let (_, response) = try await withURLSession { session in
                try await session.httpData(for: URLRequest(url: server.baseURL!.appendingPathComponent("json")))
            }
            #expect(response.statusCode == 503)
        }
    }

    @Test func aTypo_failsTheServersCreation_withTheParseSentence() async throws {
        let error = await #expect(throws: MockServerError.self) {
            try await withMockServer(cassettes: [Self.cassette], configuration: .init(faults: .specs("status:503"))) { _ in }
        }
        #expect(error?.code == .invalidFaultPlan)
        #expect(error?.description.contains("invalid fault spec 'status:503'") == true, "\(String(describing: error))")
    }

    @Test func aTypoInTheTrait_failsItsTestAlone_withTheParseSentence() async throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.cassette.save(to: folder.appendingPathComponent("specs.json"))
        // GIVEN a trait whose fault specs hold a typo, made (as at discovery) without anything being thrown
        var trait = MockServerTrait.mockServer("specs", in: folder, faults: .specs("status:503"))
        trait.environment = [:]
        // WHEN its test runs
        let thrown = await #expect(throws: (any Error).self) {
            try await MockServerTraitTests.scope(trait) { Issue.record("the test body ran under a plan that could not be read") }
        }
        // THEN that test fails with the sentence, and the process goes on to the next
        #expect("\(String(describing: thrown))".contains("invalid fault spec 'status:503'"), "\(String(describing: thrown))")
    }
}

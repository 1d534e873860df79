import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import MockServer
import ServiceKit
import ServiceReplayTesting
import ExampleServices
import Testing

/// GitHub's GraphQL API through `GraphQLService`, against `Recordings/graphql/github.json` over loopback HTTP:
/// each operation answered by its own recording, both error families, and the fault matrix with its
/// `graphql-error` row.
@Suite(.serialized, .timeLimit(.minutes(2))) struct GitHubGraphQLReplayTests {
    static let cassette = "graphql/github"
    static let client: @Sendable (URL) -> WebServiceClient = { WebServiceClient(baseURL: $0, configuration: .init(timeout: 1)) }

    @Test func eachOperation_isAnsweredByItsOwnRecording_whateverTheOrder() async throws {
        try await withReplay(Self.cassette, faults: .none) { replay in
            let star = try await replay.client.send(GitHubAddStarMutation(starrableId: "MDEwOlJlcG9zaXRvcnkxMjk2MjY5"))
            let repository = try await replay.client.send(GitHubRepositoryQuery(owner: "octocat", name: "Hello-World"))
            let viewer = try await replay.client.send(GitHubViewerQuery())
            #expect(star.addStar.starrable.stargazerCount == 3114)
            #expect(repository.repository?.nameWithOwner == "octocat/Hello-World")
            #expect(repository.repository?.stargazerCount == 3113)
            #expect(viewer.viewer.login == "octocat")
            #expect(viewer.viewer.name == "The Octocat")
            #expect(replay.server.journal.entries.map(\.outcome.interaction?.index) == [3, 1, 0])
        }
    }

    @Test func aRepositoryThatDoesNotExist_isAServiceLevelGraphQLError_withGitHubsTypeAsItsCode() async throws {
        try await withReplay(Self.cassette, faults: .none) { replay in
            do throws(WebServiceError) {
                _ = try await replay.client.send(GitHubRepositoryQuery(owner: "octocat", name: "missing"))
                Issue.record("a repository that does not exist was read as data")
            } catch {
                guard case .service(.graphQL(let failure)) = error.reason else {
                    Issue.record("expected a GraphQL error, got \(error.reason)")
                    return
                }
                #expect(failure.errors.map(\.code) == ["NOT_FOUND"])
                #expect(failure.errors.map(\.path) == [[.field("repository")]])
                let partial = try failure.partialData(as: GitHubRepositoryQuery.Response.self)
                #expect(partial != nil && partial?.repository == nil)
                #expect(error.localizedDescription == "The service reported an error: Could not resolve to a Repository with the name 'octocat/missing'.")
            }
        }
    }

    @Test func aFaultOnOneOperation_leavesTheOthersAlone() async throws {
        let faults = CassetteServer.FaultSource.specs("graphql-error=FORBIDDEN,operation=Viewer; reset,operation=Repository")
        try await withReplay(Self.cassette, faults: faults) { replay in
            // The reset comes first, on a fresh connection: FoundationNetworking sends a POST again after a reset
            // of a connection it reused, without its body, so that the server times it out (408) after 10 s.
            do throws(WebServiceError) {
                _ = try await replay.client.send(GitHubRepositoryQuery(owner: "octocat", name: "Hello-World"))
                Issue.record("the repository was read despite its fault")
            } catch {
                #expect(error.family == .network, "\(error.reason)")
            }
            do throws(WebServiceError) {
                _ = try await replay.client.send(GitHubViewerQuery())
                Issue.record("the viewer was read despite its fault")
            } catch {
                guard case .service(.graphQL(let failure)) = error.reason else {
                    Issue.record("expected a GraphQL error, got \(error.reason)")
                    return
                }
                #expect(failure.errors.map(\.code) == ["FORBIDDEN"])
                let partial = try failure.partialData(as: GitHubViewerQuery.Response.self)
                #expect(partial?.viewer.login == "octocat")
            }
            let star = try await replay.client.send(GitHubAddStarMutation(starrableId: "MDEwOlJlcG9zaXRvcnkxMjk2MjY5"))
            #expect(star.addStar.starrable.stargazerCount == 3114)
        }
    }

    @Test func theFaultMatrix_runsAGraphQLErrorRow_andEveryRowPasses() async throws {
        let report = try await TestEnvironment.isolated {
            try await FaultMatrix.run(GitHubViewerQuery(), replaying: Self.cassette, client: Self.client)
        }
        #expect(report.failures.isEmpty, "\(report)")
        let rows = report.rows.map(\.case.description)
        #expect(rows.contains("graphql-error → .service(...)"))
        #expect(rows.contains("service-error=rate_limited → .service(.httpStatus, .rateLimited or .errorPayload)"))
        #expect(
            try FaultMatrix.cases(for: GitHubViewerQuery.self, method: .post, replaying: Self.cassette, client: Self.client).map(\.fault).contains(
                "graphql-error"))
        #expect(try !FaultMatrix.cases(for: GitHubUserService.self, replaying: "github/users", client: Self.client).map(\.fault).contains("graphql-error"))
    }

    @Test func aServiceThatReadsGraphQLErrorsAsData_failsTheMatrixsGraphQLRow() async throws {
        // GIVEN a service that ignores the errors array, reading only data
        struct Careless: GraphQLService {
            struct Response: Decodable, Sendable, Equatable { let viewer: GitHubAccount? }
            var document: String { GitHubViewerQuery().document }
            func configure(_ request: inout URLRequest) { GitHubViewerQuery().configure(&request) }
            func serviceError(in reply: RawResponse) -> WebServiceError.Service? { reply.commonServiceError }
        }
        let report = try await TestEnvironment.isolated {
            try await FaultMatrix.run(Careless(), replaying: Self.cassette, client: Self.client)
        }
        // THEN the GraphQL row fails: a value where a service-level error was due
        #expect(report.rows.filter { $0.failure != nil }.map(\.case.fault) == ["service-error=rate_limited", "graphql-error"], "\(report)")
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import MockServerTesting
import ServiceKit
import ServiceReplayTesting
import Testing

/// The five-minute path of the README and of the "Getting started" article
/// (`Sources/ServiceReplayTesting/ServiceReplayTesting.docc/GettingStarted.md`), compiled and run: the
/// `Examples/` package's service and suite, copied line for line, with the one-fault test and the fault matrix
/// the documentation adds to them. `DocumentationSnippetTests` checks that each of those code blocks is in
/// `Examples/` or here. The cassette the README records, `ProfileServiceTests/octocat`, is GitHub's octocat
/// answer from `Recordings/github/users.json`, written to a folder of the suite's own.
@Suite(
    .firstHourRecordings,
    .disabled(
        if: ProcessInfo.processInfo.environment["MOCKSERVER_FAULTS"] != nil,
        "its fault-free test expects the recorded answer, which CI's random fault plans replace"))
struct FirstHourTests {
    /// A GitHub user's public profile.
    public struct Profile: Decodable, Sendable, Equatable {
        public let login: String
        public let name: String?
        public let publicRepos: Int

        enum CodingKeys: String, CodingKey {
            case login, name
            case publicRepos = "public_repos"
        }
    }

    /// The example's wrapper, which owns the client.
    public struct ProfileService: Sendable {
        /// Why a profile could not be fetched.
        public enum Failure: Error, Equatable {
            /// GitHub knows no such user.
            case notFound(String)
            /// GitHub answered with another status.
            case status(Int)
        }

        private let client: WebServiceClient

        /// A service whose requests go through a session made from `configuration`.
        public init(configuration: URLSessionConfiguration = .ephemeral) {
            client = WebServiceClient(
                baseURL: URL(string: "https://api.github.com")!,
                transport: URLSessionTransport(configuration: configuration))
        }

        /// The profile of `login`.
        /// - Throws: ``Failure`` for an answer with an error status, ServiceKit's `WebServiceError` otherwise.
        public func profile(login: String) async throws -> Profile {
            let status: Int
            do throws(WebServiceError) {
                return try await client.send(UserProfile(login: login))
            } catch {
                guard let code = error.statusCode else { throw error }
                status = code
            }
            throw status == 404 ? Failure.notFound(login) : Failure.status(status)
        }
    }

    /// `GET /users/LOGIN`: the call itself; its `Decodable` response needs no mapping.
    struct UserProfile: WebService {
        typealias Response = Profile
        let login: String

        var endpoint: String { "/users/\(login)" }

        func configure(_ request: inout URLRequest) {
            request.setValue("application/vnd.github+json", forHTTPHeaderField: "Accept")
        }
    }

    @Suite(.mockServer(upstream: "https://api.github.com"))
    struct ProfileServiceTests {
        let service: ProfileService

        init() throws {
            let server = try #require(CassetteServer.current)
            service = ProfileService(configuration: try server.sessionConfiguration())
        }

        @Test func octocat() async throws {
            let profile = try await service.profile(login: "octocat")
            #expect(profile.login == "octocat")
            #expect(profile.name == "The Octocat")
        }

        @Test(
            .mockServer(
                "ProfileServiceTests/octocat", upstream: "https://api.github.com",
                faults: .specs("status=503")))
        func octocat_whenGitHubIsDown() async throws {
            await #expect(throws: ProfileService.Failure.status(503)) {
                try await service.profile(login: "octocat")
            }
        }
    }

    @Test func userProfile_throughEveryFault() async throws {
        let report = try await FaultMatrix.run(
            UserProfile(login: "octocat"), replaying: "ProfileServiceTests/octocat",
            upstream: "https://api.github.com",
            client: { WebServiceClient(baseURL: $0, configuration: .init(timeout: 1)) })
        #expect(report.failures.isEmpty, "\(report)")
    }

    @Test func theFaultMatrix_ranItsRows_andNoTemplateRows() async throws {
        // The README promises "about twenty faults"; a recorded cassette has no error templates of its own
        let rows = try FaultMatrix.cases(
            for: UserProfile.self, replaying: "ProfileServiceTests/octocat",
            client: { WebServiceClient(baseURL: $0, configuration: .init(timeout: 1)) })
        #expect((18...24).contains(rows.count), "\(rows)")
        #expect(!rows.contains { $0.fault.hasPrefix("service-error=") })
    }
}

/// Runs each test of the suite with a recordings folder of its own holding the cassettes the walk-through
/// records (`ProfileServiceTests/octocat`, and the nested suite's default name), made from the bundled GitHub
/// recording, and with no recording variable of the caller's environment.
struct FirstHourRecordingsTrait: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("first-hour-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.writeCassettes(into: folder)
        var environment = TestEnvironment.ownSuite
        environment["MOCKSERVER_RECORDINGS"] = folder.path
        try await TestEnvironment.$override.withValue(environment, operation: function)
    }

    /// The octocat interaction of `Recordings/github/users.json`, as the cassettes the suite's tests name.
    static func writeCassettes(into folder: URL) throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let source = repository.appendingPathComponent("Recordings/github/users.json")
        guard var cassette = try JSONSerialization.jsonObject(with: Data(contentsOf: source)) as? [String: Any],
            let interactions = cassette["interactions"] as? [[String: Any]],
            let octocat = interactions.first(where: { ($0["request"] as? [String: Any])?["target"] as? String == "/users/octocat" })
        else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: source.path])
        }
        cassette["interactions"] = [octocat]
        cassette["errorTemplates"] = nil
        cassette["note"] = nil
        for name in ["ProfileServiceTests/octocat", "FirstHourTests/ProfileServiceTests/octocat"] {
            cassette["name"] = "octocat"
            let file = folder.appendingPathComponent(name + ".json")
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try JSONSerialization.data(withJSONObject: cassette, options: [.prettyPrinted, .sortedKeys]).write(to: file)
        }
    }
}

extension Trait where Self == FirstHourRecordingsTrait {
    /// See ``FirstHourRecordingsTrait``.
    static var firstHourRecordings: Self { FirstHourRecordingsTrait() }
}

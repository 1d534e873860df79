import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import MockServer
import XCTest

/// The same one-line helper from XCTest.
final class CassetteServerXCTests: XCTestCase {
    func testWithMockServer_replaysInXCTest() async throws {
        try await TestEnvironment.isolated {
            try await withMockServer(replaying: "feed/feeds", configuration: .init(faults: .none)) { server in
                let (data, response) = try await withURLSession { session in
                    try await session.httpData(for: URLRequest(url: URL(string: "/feeds?page=3&pageSize=3", relativeTo: server.baseURL!)!))
                }
                XCTAssertEqual(response.statusCode, 200)
                XCTAssertTrue(String(decoding: data, as: UTF8.self).contains("No feeds found."))
            }
        }
    }

    /// The XCTest equivalent of the `.mockServer` trait: one line, the server in `CassetteServer.current`, and a
    /// routed session for fixed https URLs.
    func testWithMockServer_upstreamOneLiner_routesFixedURLs() async throws {
        try await TestEnvironment.isolated {
            try await withMockServer(replaying: "github/users", upstream: "https://api.github.com", configuration: .init(faults: .none)) { server in
                XCTAssertTrue(CassetteServer.current === server)
                let session = URLSession(configuration: try server.sessionConfiguration())
                defer { session.finishTasksAndInvalidate() }
                let (_, response) = try await session.httpData(for: URLRequest(url: URL(string: "https://api.github.com/users/octocat")!))
                XCTAssertEqual(response.statusCode, 200)
                XCTAssertEqual(server.journal.entries.count, 1)
            }
        }
    }
}

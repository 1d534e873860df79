import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import MockServer
import XCTest

/// The same one-line helper from XCTest.
final class ReplayServerXCTests: XCTestCase {
    func testWithMockServer_replaysInXCTest() async throws {
        try await withMockServer(replaying: "feed/feeds", configuration: .init(faults: .none)) { server in
            let (data, response) = try await withURLSession { session in
                try await session.httpData(for: URLRequest(url: URL(string: "/feeds?page=3&pageSize=3", relativeTo: server.baseURL!)!))
            }
            XCTAssertEqual(response.statusCode, 200)
            XCTAssertTrue(String(decoding: data, as: UTF8.self).contains("No feeds found."))
        }
    }
}

@testable import MockServer
import XCTest

/// The journal's assertions work from XCTest as they are: throwing fails the test with the message.
final class JournalXCTests: XCTestCase {
    func testAssertions_throwDescriptiveErrors() throws {
        let journal = Journal()
        journal.append(HTTPRequest(method: "GET", target: "/users"), outcome: .passedThrough(status: 200))
        XCTAssertNoThrow(try journal.verify(.get("/users"), calledTimes: 1))
        XCTAssertThrowsError(try journal.verifyNeverCalled(.get("/users"))) { error in
            XCTAssertEqual("\(error)", "Expected GET /users never to be called, but it was called 1 time:\n  #0 GET /users → passed through (200)")
        }
    }
}

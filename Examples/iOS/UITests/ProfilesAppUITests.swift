// The iOS twin of the example's child-process test (Examples/Tests/GitHubProfilesTests/ProfilesAppTests.swift):
// the app runs in its own process, launched with the server's launch environment, and the test steers the
// server between two taps. Only checked by reading: there is no Mac where this project is developed.
import MockServer
import XCTest

final class ProfilesAppUITests: XCTestCase {
    /// What the app shows for octocat's profile as GitHub (and the example's fake of it) serves it.
    static let octocat = "profile octocat: The Octocat (octocat), 8 public repositories"

    /// Under `.ci/example --xcodebuild`, the first run records the cassette from the fake upstream
    /// (`TEST_RUNNER_MOCKSERVER_RECORD=once`); the run with the upstream stopped replays it and sets the faults:
    /// a server that forwards to the upstream takes no fault plan.
    func testTheApp_showsItsProfile_thenTheErrorOfEachFaultSetWhileItRuns() async throws {
        try await withMockServer(
            replaying: "ProfilesAppUITests/octocat", upstream: "https://api.github.com", configuration: .init(faults: .none)
        ) { server in
            // GIVEN the app, launched once the server listens, with the server's launch environment
            let environment = try server.launchEnvironment
            let app = await ProfileScreenDriver(launchEnvironment: environment)
            // WHEN it asks for a profile THEN it shows what GitHub's answer (recorded, or being recorded) holds
            let shown = await app.showProfile()
            XCTAssertEqual(shown, Self.octocat)
            guard server.configuration.mode == .replay else {
                XCTAssertThrowsError(try server.setFaultPlan(try FaultPlan.parse(specs: "status=503")))
                await app.terminate()
                return
            }
            // WHEN the server answers 503 from the next request on THEN the app shows the service-level error
            try server.setFaultPlan(try FaultPlan.parse(specs: "status=503"))
            let afterStatus = await app.showProfile()
            XCTAssertEqual(afterStatus, "profile octocat: service error: GitHub answered HTTP 503")
            // WHEN it resets the connection instead THEN the app shows the network-level error
            try server.setFaultPlan(try FaultPlan.parse(specs: "reset"))
            let afterReset = await app.showProfile()
            XCTAssertEqual(afterReset, "profile octocat: network error: The connection was lost before the request finished. Try again.")
            await app.terminate()
            // AND the server saw each request under the host the app meant, answered as the plan in force said
            // (URLSession may send the reset request once more on a fresh connection)
            let entries = server.journal.entries
            XCTAssertEqual(entries.map { $0.request.headers["Host"] }, Array(repeating: "api.github.com", count: entries.count))
            XCTAssertEqual(Array(entries.map(\.outcome.status).prefix(2)), [200, 503])
            XCTAssertTrue((3...4).contains(entries.count), "\(entries)")
            XCTAssertEqual(entries.dropFirst(2).map(\.outcome.kind), Array(repeating: .faultInjected, count: entries.count - 2))
        }
    }
}

/// The app's one screen, driven through XCUIApplication on the main actor.
@MainActor final class ProfileScreenDriver {
    private let app = XCUIApplication()

    /// Launches the app with `launchEnvironment` merged into its own.
    init(launchEnvironment: [String: String]) {
        app.launchEnvironment.merge(launchEnvironment) { $1 }
        app.launch()
    }

    /// Taps "Show profile" and returns the line the app then shows; waits at most 60 s for it to change.
    func showProfile() -> String {
        let answer = app.staticTexts["answer"]
        let before = answer.label
        app.buttons["show"].tap()
        let changed = NSPredicate(format: "label != %@ AND label != %@", before, "Loading…")
        let expectation = XCTNSPredicateExpectation(predicate: changed, object: answer)
        _ = XCTWaiter().wait(for: [expectation], timeout: 60)
        return answer.label
    }

    /// Ends the app.
    func terminate() {
        app.terminate()
    }
}

import Foundation
import ServiceReplayShared
import Testing

/// Runs `body` in the running Swift Testing test and returns what it returned or threw, and whether the test
/// failed meanwhile: a thrown error, or an issue recorded without throwing (a failed `#expect`,
/// `Issue.record`). Swift Testing tells no one whether a test failed; a known-issue matcher that never
/// matches sees every issue the test records, and leaves each one a failure. `nil` outside a Swift Testing
/// test (in XCTest), where nothing here can see a failure that does not throw.
package func observingFailures<Value>(_ body: () async throws -> Value) async -> (result: Result<Value, any Error>, failed: Bool?) {
    guard Test.current != nil else {
        do {
            return (.success(try await body()), nil)
        } catch {
            return (.failure(error), true)
        }
    }
    let failures = Lock(0)
    var result: Result<Value, any Error>?
    await withKnownIssue(isIntermittent: true) {
        // Caught here, so that withKnownIssue neither records the error nor keeps it from the caller.
        do {
            result = .success(try await body())
        } catch {
            result = .failure(error)
        }
    } matching: { issue in
        if countsAsFailure(issue) { failures.withLock { $0 += 1 } }
        return false
    }
    guard let result else {
        // withKnownIssue runs its body once; this is only reached if it did not.
        return (.failure(CancellationError()), true)
    }
    if case .failure = result { return (result, true) }
    return (result, failures.withLock { $0 } > 0)
}

/// Whether `issue` fails its test. Swift Testing before 6.3 has no warnings, so every issue fails it.
private func countsAsFailure(_ issue: Issue) -> Bool {
    #if compiler(>=6.3)
    issue.isFailure
    #else
    true
    #endif
}

/// Reports `warning` on the running test, at `sourceLocation` (the test's, so that an IDE shows it there and
/// not in this package): as a warning issue where Swift Testing has them (6.3 and later), else on standard
/// error, since an issue would fail the test.
package func reportWarning(_ warning: String, at sourceLocation: SourceLocation) {
    #if compiler(>=6.3)
    Issue.record(Comment(rawValue: warning), severity: .warning, sourceLocation: sourceLocation)
    #else
    FileHandle.standardError.write(Data("warning: \(warning)\n".utf8))
    #endif
}

/// Skips the running Swift Testing test with `sentence` (see ``MockServer/CassetteSession/skipTest``); `nil` outside
/// one, or with a Swift Testing older than 6.3, which cannot skip a test once it runs.
package func testSkipper() -> (@Sendable (String) throws -> Void)? {
    #if compiler(>=6.3)
    guard Test.current != nil else { return nil }
    return { sentence in try Test.cancel(Comment(rawValue: sentence)) }
    #else
    return nil
    #endif
}

/// A runner for the rehearsal of a fault test in a mode that records (see the article "Recording from your tests"): it runs the test's body with every failure it records or throws marked as a known issue, since
/// the faults the test expects do not apply while recording; `nil` outside a Swift Testing test. Its issues
/// are attributed to `sourceLocation`, the test's.
package func rehearsal(at sourceLocation: SourceLocation) -> ((() async throws -> Void) async -> Void)? {
    guard Test.current != nil else { return nil }
    return { body in
        await withKnownIssue(
            "the rehearsal that records the cassette, without faults; the run with faults follows",
            isIntermittent: true, sourceLocation: sourceLocation
        ) {
            do {
                try await body()
            } catch {
                Issue.record(error, sourceLocation: sourceLocation)
            }
        } matching: { _ in
            true
        }
    }
}

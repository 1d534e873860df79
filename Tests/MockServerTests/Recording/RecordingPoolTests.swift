import Dispatch
import Foundation
@testable import MockServer
import Testing

/// The recording server forwards off Swift's cooperative pool: tests share that pool with the servers they
/// talk to, and one that holds its threads must not stall the server.
@Suite struct RecordingPoolTests {
    @Test func forwarding_answersWhileEveryCooperativeThreadIsBlocked() async throws {
        try await withUpstream { upstream, log in
            try await withRecordingServer(upstream: upstream) { _, base in
                let width = ProcessInfo.processInfo.activeProcessorCount
                let started = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
                for _ in 0..<width {
                    Task.detached { holdThread(signalling: started, until: release) }
                }
                // On a thread of its own: the test's task cannot run again until the pool is released.
                let status = try await onThread {
                    defer { for _ in 0..<width { release.signal() } }
                    for _ in 0..<width {
                        guard started.wait(timeout: .now() + 60) == .success else { throw PoolNotHeld() }
                    }
                    let client = try RawHTTPClient(base)
                    defer { client.close() }
                    try client.send("GET /json HTTP/1.1\r\nHost: localhost\r\n\r\n")
                    return try client.readResponseBlocking(timeout: .seconds(20)).status
                }
                #expect(status == 200)
                #expect(log.all.map(\.target) == ["/json"])
            }
        }
    }
}

/// Blocks the calling thread (a cooperative one, when called from a task) until `release` is signalled.
private func holdThread(signalling started: DispatchSemaphore, until release: DispatchSemaphore) {
    started.signal()
    release.wait()
}

private struct PoolNotHeld: Error, CustomStringConvertible {
    var description: String { "the blocking tasks did not all start within 60 s" }
}

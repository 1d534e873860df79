import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif
@testable import MockServer
import ServiceReplayShared
import ServiceReplayTestSupport
import Testing

#if os(Linux)
/// Host routing in a child process whose descriptors are limited, as `swift test` runs from a macOS shell
/// (a soft limit of 256): a suite of host-routed tests failed at its 117th test there, each test leaving its
/// session and two descriptors behind, and then every request waited 60 s for a timeout that named nothing
/// (issue 36). The soak it runs is `Tests/ServicesReplayTests/Soak/SoakTests.swift`, in the same test binary.
/// Linux only: the child is this very binary, `/proc/self/exe`.
@Suite(.timeLimit(.minutes(5))) struct RoutedTestsUnderADescriptorLimit {
    /// Not in the children themselves.
    static let isAvailable =
        ProcessInfo.processInfo.environment["MOCKSERVER_SOAK"] == nil
        && ProcessInfo.processInfo.environment[exhaustVariable] == nil
        && ProcessInfo.processInfo.environment[parallelVariable] == nil

    /// Set in the child of ``routedRequest_withNoDescriptorsLeft_failsAtOnce_sayingSo()``.
    static let exhaustVariable = "MOCKSERVER_SOAK_EXHAUST"
    /// Set in the child of ``thousandParallelTraitTests_passUnderALimitOf256()``.
    static let parallelVariable = "MOCKSERVER_SOAK_PARALLEL"

    @Test(.enabled(if: isAvailable))
    func threeHundredRoutedTests_passInOneProcessLimitedTo256Descriptors() async throws {
        // GIVEN this test binary, limited to 256 descriptors, running 300 routed tests one after the other
        // WHEN it runs to the end
        let (status, printed) = try await Self.runChild(
            limit: 256, environment: "MOCKSERVER_SOAK=300",
            filter: #"SoakTests/routedSession\("#)
        // THEN every test passed and the last checkpoint was reached, with the descriptors flat
        #expect(status == 0, "\(printed)")
        #expect(printed.contains("soak routed session: 300 tests, "), "\(printed)")
    }

    @Test(.enabled(if: isAvailable))
    func thousandParallelTraitTests_passUnderALimitOf256() async throws {
        // GIVEN a child limited to 256 descriptors whose 1,000 routed trait tests Swift Testing starts at once
        // WHEN it runs
        let (status, printed) = try await Self.runChild(
            limit: 256, environment: "\(Self.parallelVariable)=1",
            filter: #"RoutedTestsUnderADescriptorLimit/parallelTraitChild\("#)
        // THEN each test waited for a server slot instead of failing to listen, and all passed
        #expect(status == 0, "\(printed.suffix(2_000))")
    }

    /// The child of the test above.
    @Test(
        .enabled(if: ProcessInfo.processInfo.environment[parallelVariable] != nil), .ownMockServer("github/users"),
        arguments: 0..<1_000)
    func parallelTraitChild(test: Int) async throws {
        let server = try #require(CassetteServer.current)
        let session = URLSession(configuration: try server.sessionConfiguration())
        defer { session.finishTasksAndInvalidate() }
        let (_, response) = try await session.httpData(for: URLRequest(url: try #require(URL(string: "https://api.github.com/users/octocat"))))
        #expect(response.statusCode == 200)
    }

    @Test(.enabled(if: isAvailable))
    func routedRequest_withNoDescriptorsLeft_failsAtOnce_sayingSo() async throws {
        // GIVEN a child that uses up its 64 descriptors but one, then sends a routed request answered in-process, and
        // one whose reply (a reset) needs the socket, with a 60 s timeout
        // WHEN it runs
        let (status, printed) = try await Self.runChild(
            limit: 64, environment: "\(Self.exhaustVariable)=1",
            filter: #"RoutedTestsUnderADescriptorLimit/exhaustedChild\("#)
        // THEN the first was answered, needing no descriptor, and the second failed without timing out, saying why
        #expect(status == 0, "\(printed)")
        #expect(printed.contains("exhausted child: in-process 200"), "\(printed)")
        #expect(
            printed.contains(
                "exhausted child: \(URLError.Code.cannotConnectToHost.rawValue): the process has no file descriptors left (its limit is 64), so the routed request was not sent"
            ), "\(printed)")
    }

    /// The child of the test above: it fails unless the first routed request gets 200 and the second fails as
    /// `cannotConnectToHost`, and prints the status, then the error's code and sentence; a timeout (after 60 s)
    /// fails it.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[exhaustVariable] != nil))
    func exhaustedChild() async throws {
        let plan = try FaultPlan.parse(specs: "reset,path=/users/reset")
        let server = try CassetteServer(cassettes: [HostRoutingTests.users], configuration: .init(faults: .plan(plan)))
        try await server.start()
        let configuration = try server.sessionConfiguration()
        configuration.timeoutIntervalForRequest = 60
        // Learning what URLSession adds needs descriptors of its own: done before they are used up.
        #expect(await URLSessionAddedHeaders.learned() != nil)
        let session = URLSession(configuration: configuration)
        var held: [Int32] = []
        defer { held.forEach { close($0) } }
        // Uses up every descriptor but one, one short of a loopback connection's two ends.
        func exhaustAllButOne() {
            for _ in 0..<Int(DescriptorLimit.current.rlim_cur) {
                let fd = open("/dev/null", O_RDONLY)
                guard fd >= 0 else { break }
                held.append(fd)
            }
            if let spare = held.popLast() { close(spare) }
        }
        exhaustAllButOne()
        let (_, answered) = try await session.httpData(for: URLRequest(url: try #require(URL(string: "https://api.github.com/users/octocat"))))
        print("exhausted child: in-process \(answered.statusCode)")
        // Bounded: a descriptor the learning's session closes late is taken by the next round.
        for _ in 0..<3 where Sys.descriptorsLeft(2) { exhaustAllButOne() }
        #expect(Sys.descriptorsLeft(1))
        #expect(!Sys.descriptorsLeft(2))
        let error = await #expect(throws: URLError.self) {
            _ = try await session.data(from: try #require(URL(string: "https://api.github.com/users/reset")))
        }
        held.forEach { close($0) }
        held = []
        print("exhausted child: \(error.map { "\($0.code.rawValue): \($0.localizedDescription)" } ?? "no error")")
        #expect(error?.code == .cannotConnectToHost)
        session.invalidateAndCancel()
        await server.stop()
    }

    /// Runs this test binary's Swift Testing tests matching `filter` in a child limited to `limit` descriptors,
    /// with `environment` (`NAME=value`) added; returns its exit status and standard output.
    static func runChild(limit: Int, environment: String, filter: String) async throws -> (status: Int32, output: String) {
        let binary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let script = "ulimit -n \(limit) && \(environment) exec \"$0\" --testing-library swift-testing --filter '\(filter)'"
        let output = Pipe()
        let child = try ChildProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", script, binary], output: output)
        return try await offThePool {
            let data = output.fileHandleForReading.readDataToEndOfFile()
            child.waitUntilExit()
            return (child.terminationStatus, String(decoding: data, as: UTF8.self))
        }
    }

    /// Runs blocking `work` on a thread of its own, never on the cooperative pool that the servers of tests
    /// running in parallel need.
    static func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
        }
    }
}
#endif

/// What a server releases when it stops: the actions given to `whenStopped`, and with them each routed
/// configuration's loopback sessions.
@Suite struct ServerStopReleasesTests {
    @Test func whenStopped_runsEachActionOnce_atStop_inOrder_andAtOnceAfterIt() async throws {
        // GIVEN a running server with two actions to run when it stops
        let server = try CassetteServer(cassettes: [HostRoutingTests.users], configuration: .init(faults: .none))
        try await server.start()
        let ran = Lock<[String]>([])
        server.whenStopped { ran.withLock { $0.append("first") } }
        server.whenStopped { ran.withLock { $0.append("second") } }
        #expect(ran.withLock { $0 }.isEmpty)
        // WHEN it stops, twice, and is given an action afterwards
        await server.stop()
        await server.stop()
        #expect(ran.withLock { $0 } == ["first", "second"])
        server.whenStopped { ran.withLock { $0.append("late") } }
        // THEN each action ran once, the late one at once
        #expect(ran.withLock { $0 } == ["first", "second", "late"])
    }

    @Test func loopbackSessions_oneForEachTimeout_noneOnceInvalidated() throws {
        let sessions = LoopbackSessions()
        let five = try #require(sessions.session(timeout: 5))
        #expect(sessions.session(timeout: 5) === five)
        let ten = try #require(sessions.session(timeout: 10))
        #expect(ten !== five)
        #expect(ten.configuration.timeoutIntervalForRequest == 10)
        sessions.invalidate()
        #expect(sessions.session(timeout: 5) == nil)
        sessions.invalidate()
    }

    @Test func stoppingTheServer_endsItsRoutedSessions_andLaterRequestsFailWithoutReachingTheNetwork() async throws {
        // GIVEN a routed session that reached its server through its slot's loopback session
        let server = try CassetteServer(cassettes: [HostRoutingTests.users], configuration: .init(faults: .none))
        try await server.start()
        let configuration = try server.sessionConfiguration()
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let url = try #require(URL(string: "https://api.github.com/users/octocat"))
        let (_, response) = try await session.httpData(for: URLRequest(url: url))
        #expect(response.statusCode == 200)
        let routing = try #require(configuration.protocolClasses?.first as? any RoutingProtocol.Type)
        let sessions = try #require(HostRoutes.shared.destination(ofSlot: routing.slotIndex)?.destination.sessions)
        #expect(sessions.session(timeout: configuration.timeoutIntervalForRequest) != nil)
        // WHEN the server stops
        await server.stop()
        // THEN its loopback sessions are ended, and the next request fails as a refused connection would,
        // naming the URL asked for
        #expect(sessions.session(timeout: configuration.timeoutIntervalForRequest) == nil)
        let error = await #expect(throws: URLError.self) { _ = try await session.data(from: url) }
        #expect(error?.code == .cannotConnectToHost)
        #expect(error?.failingURL == url)
    }
}

/// The slots that bound how many test servers run at once.
@Suite struct ServerSlotsTests {
    @Test func capacity_isASixteenthOfTheDescriptorLimit_atLeastFour() {
        #expect(ServerSlots.capacity(forLimit: 256) == 16)
        #expect(ServerSlots.capacity(forLimit: 1_024) == 64)
        #expect(ServerSlots.capacity(forLimit: 10) == 4)
        #expect(ServerSlots.capacity(forLimit: UInt64.max) == 65_536)
    }

    @Test func atMostCapacityHoldASlot_theNextWaitsForOneToBeGiven_andANestedHelperRunsInItsTestsSlot() async throws {
        // GIVEN two slots
        let slots = ServerSlots(capacity: { 2 })
        // WHEN three tests that each hold one until told to finish run, twice (the second round finds the
        // slots as the first left them)
        for _ in 0..<2 {
            // THEN never were more than two inside at once
            #expect(try await Self.mostInside(slots, tests: 3) == 2)
        }
    }

    /// Runs `tests` tests that each hold a slot until told to finish; once two are inside, the first of them
    /// finishes, then, once the next is inside, all do. Returns the most that were inside at once.
    static func mostInside(_ slots: ServerSlots, tests: Int) async throws -> Int {
        let inside = Lock(0)
        let most = Lock(0)
        let finish = (0..<tests).map { _ in AsyncStream.makeStream(of: Void.self) }
        let (entries, entered) = AsyncStream.makeStream(of: Int.self)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for test in 0..<tests {
                group.addTask {
                    await slots.holding {
                        let now = inside.withLock {
                            $0 += 1; return $0
                        }
                        most.withLock { $0 = max($0, now) }
                        // A helper nested in the test takes no second slot.
                        _ = await slots.holding { entered.yield(test) }
                        for await _ in finish[test].stream { break }
                        inside.withLock { $0 -= 1 }
                    }
                }
            }
            var arrivals = entries.makeAsyncIterator()
            let first = try #require(await arrivals.next())
            _ = await arrivals.next()
            #expect(inside.withLock { $0 } == 2)
            finish[first].continuation.finish()
            _ = await arrivals.next()
            finish.forEach { $0.continuation.finish() }
            try await group.waitForAll()
        }
        return most.withLock { $0 }
    }
}

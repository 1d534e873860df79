#if os(macOS) || os(Linux)  // The benchmarks start child processes (Process), which iOS, tvOS and watchOS lack.
import Foundation
import MockServer
#if canImport(Glibc)
import Glibc
#endif

/// `mockserver-bench probe [--interactions N] [--requests M] [--journal CAPACITY]`: the replay path without
/// sockets, for profilers. Loads the wire benchmark's cassette of N interactions (default 10,000) from a file
/// into a ``CassetteServer`` (never started) as `recorder replay` does, then runs M requests (default 100,000)
/// shaped like wrk's (`GET /` with a `Host` header) through what the server does for each:
/// ``ReplayEngine/answer(_:headFromGET:)``, then ``Journal/append(_:answer:at:)``. Prints the resident memory at each step, after handing freed heap back to the system (and
/// glibc's `malloc_stats` when `PROBE_MALLOC_STATS` is set); under
/// `valgrind --tool=callgrind --toggle-collect='*replayPathLoop*'` the instructions per request are the
/// collected total divided by M.
enum ProbeCommand {
    static func run(_ arguments: [String]) throws {
        var interactions = 10_000
        var requests = 100_000
        var journalCapacity = Journal.defaultCapacity
        var index = 0
        while index + 1 < arguments.count {
            guard let value = Int(arguments[index + 1]), value >= 1 else { throw BenchmarkError("\(arguments[index]) needs a whole number of at least 1.") }
            switch arguments[index] {
            case "--interactions": interactions = value
            case "--requests": requests = value
            case "--journal": journalCapacity = value
            default: throw BenchmarkError("Unknown argument '\(arguments[index])' for probe.")
            }
            index += 2
        }
        guard index == arguments.count else { throw BenchmarkError("Unknown argument '\(arguments[index])' for probe.") }

        report("start")
        let server = try makeServer(interactions: interactions, journalCapacity: journalCapacity)
        let request = HTTPRequest(method: "GET", target: "/", headers: ["Host": "127.0.0.1:28080"])
        let matched = replayPathLoop(server, request, count: requests)
        precondition(matched == requests, "every probe request must match")
        report("after \(requests) requests (journal keeps \(server.journal.entries.count))")
    }

    /// Writes the cassette to a temporary file and serves it the way `recorder replay` does.
    private static func makeServer(interactions: Int, journalCapacity: Int) throws -> CassetteServer {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("probe-\(getpid()).json")
        try CassetteCommand.cassette(interactions: interactions).save(to: file, overwrite: true)
        defer { try? FileManager.default.removeItem(at: file) }
        report("cassette written")
        let clock = ContinuousClock()
        let start = clock.now
        let server = try CassetteServer(contentsOf: [file], configuration: CassetteServer.Configuration(faults: .none, journalCapacity: journalCapacity))
        report("cassette loaded in \(clock.now - start)")
        return server
    }

    /// The per-request work of the replay handler; its own function so that callgrind can collect it alone.
    @inline(never)
    static func replayPathLoop(_ server: CassetteServer, _ request: HTTPRequest, count: Int) -> Int {
        var matched = 0
        for _ in 0..<count {
            let answer = server.engine.answer(request)
            server.journal.append(request, answer: answer)
            if answer.interaction != nil { matched += 1 }
        }
        return matched
    }

    /// Prints resident memory after handing freed heap back to the system, so the figure is what is live.
    private static func report(_ step: String) {
        #if os(Linux)
        if let trim = dlsym(dlopen(nil, RTLD_NOW), "malloc_trim") {
            _ = unsafeBitCast(trim, to: (@convention(c) (Int) -> Int32).self)(0)
        }
        if ProcessInfo.processInfo.environment["PROBE_MALLOC_STATS"] != nil, let stats = dlsym(dlopen(nil, RTLD_NOW), "malloc_stats") {
            unsafeBitCast(stats, to: (@convention(c) () -> Void).self)()
        }
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let fields = status.split(separator: "\n").filter { $0.hasPrefix("VmRSS") || $0.hasPrefix("RssAnon") || $0.hasPrefix("VmHWM") }
        print("\(step): " + fields.map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }.joined(separator: ", "))
        #else
        print(step)
        #endif
    }
}
#endif

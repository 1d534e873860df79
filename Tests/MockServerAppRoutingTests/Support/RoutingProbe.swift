// Only where the probe is built and started as a child process: Xcode builds no command-line executable for iOS, tvOS,
// watchOS or visionOS, and ChildProcess (Tests/TestSupport) exists on macOS and Linux alone.
#if os(macOS) || os(Linux)
import Foundation
import MockServerAppRouting
import ServiceReplayShared
import ServiceReplayTestSupport

/// What a run of the built `routing-probe` (Tests/RoutingProbe) printed: its activation line first, then one
/// line per request.
struct ProbeRun: Sendable {
    let status: Int32
    let lines: [String]
    let errors: String
}

/// The routing probe, a stand-in for an app under UI test. It runs as a child process because routing is
/// process-wide: activated in the test process, it would reroute every other test running in parallel.
enum RoutingProbe {
    /// How long one run may take before it is killed, so that a hung probe fails its test instead of the suite.
    static let runLimit: TimeInterval = 120

    /// The build folder holding the test products and the probe. On Linux the bundle URL is that folder; on
    /// macOS it is the `.xctest` bundle inside it.
    static var executable: URL {
        let bundle = Bundle(for: Marker.self).bundleURL
        let folder = bundle.pathExtension == "xctest" ? bundle.deletingLastPathComponent() : bundle
        return folder.appendingPathComponent("routing-probe")
    }

    private final class Marker {}

    /// This process's environment without the routing variable, plus `added`: what a launcher gives its child.
    /// A safety net besides: libcurl (FoundationNetworking) sends every request for a host other than
    /// 127.0.0.1 through a proxy at 127.0.0.1 port 9, which refuses it, so that even a routing bug never sends
    /// a request, or a name lookup, off this machine.
    static func environment(adding added: [String: String]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment[AppRouting.environmentVariable] = nil
        for name in ["http_proxy", "https_proxy", "all_proxy", "HTTPS_PROXY", "ALL_PROXY"] { environment[name] = "http://127.0.0.1:9" }
        environment["no_proxy"] = "127.0.0.1"
        environment["NO_PROXY"] = "127.0.0.1"
        return environment.merging(added) { $1 }
    }

    /// Runs the probe with `requests` (`"KIND URL"` each) and `environment` merged into this process's (minus
    /// the routing variable), and collects its lines.
    static func run(_ requests: [String], environment added: [String: String]) async throws -> ProbeRun {
        try await start(requests, environment: added).finish()
    }

    /// Starts the probe as ``run(_:environment:)`` does; ``Running/finish()`` collects its lines.
    static func start(_ requests: [String], environment added: [String: String]) throws -> Running {
        let output = Pipe(), errors = Pipe()
        let process = try ChildProcess(executable, requests, output: output, errors: errors, environment: environment(adding: added))
        return Running(process: process, output: output.fileHandleForReading, errors: errors.fileHandleForReading)
    }

    /// A probe started and not yet collected.
    struct Running: Sendable {
        let process: ChildProcess
        let output: FileHandle
        let errors: FileHandle

        /// Waits for the probe to exit (killed after ``RoutingProbe/runLimit``) and collects its lines, on threads
        /// of its own, never on the cooperative pool the servers' answers need.
        func finish() async -> ProbeRun {
            let finished = await process.finish(output: output, errors: errors, limit: RoutingProbe.runLimit)
            return ProbeRun(status: finished.status, lines: finished.output.split(separator: "\n").map(String.init), errors: finished.errors)
        }
    }
}
#endif

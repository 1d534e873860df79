#if os(macOS) || os(Linux)  // The benchmarks start child processes (Process), which iOS, tvOS and watchOS lack.
import Foundation
import MockServer

/// `mockserver-bench serve [--port N]`: serves ``BenchmarkPayload`` for every request until killed.
enum ServeCommand {
    static func run(_ arguments: [String]) async throws {
        var port: UInt16 = 8080
        var index = 0
        while index < arguments.count {
            switch arguments[index] {
            case "--port" where index + 1 < arguments.count:
                guard let value = UInt16(arguments[index + 1]) else { throw BenchmarkError("--port needs a number from 0 to 65535.") }
                port = value
                index += 2
            default:
                throw BenchmarkError("Unknown argument '\(arguments[index])' for serve.")
            }
        }
        let configuration = HTTPServer.Configuration(port: port, maxConnections: 4096)
        let server = HTTPServer(configuration: configuration) { _ in .response(BenchmarkPayload.response) }
        let url = try await server.start()
        print("serving \(BenchmarkPayload.json.count) bytes of JSON at \(url)")
        while true {
            try await Task.sleep(for: .seconds(3600))
        }
    }
}
#endif

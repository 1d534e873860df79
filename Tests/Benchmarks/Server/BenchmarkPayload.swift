#if os(macOS) || os(Linux)  // The benchmarks start child processes (Process), which iOS, tvOS and watchOS lack.
import Foundation
import MockServer

/// The fixed answer both servers give in the wire benchmark: a 300-byte JSON object, the size of a
/// typical small API response.
enum BenchmarkPayload {
    static let json: Data = {
        let prefix =
            #"{"id":42,"login":"octocat","name":"The Octocat","company":"GitHub","blog":"https://github.blog","location":"San Francisco","email":null,"bio":"#
        let suffix = #"","public_repos":8,"followers":9999,"following":9,"created_at":"2011-01-25T18:44:36Z"}"#
        let filler = String(repeating: "x", count: 300 - prefix.utf8.count - suffix.utf8.count - 1)
        return Data((prefix + "\"" + filler + suffix).utf8)
    }()

    static let response = HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: json)
}
#endif

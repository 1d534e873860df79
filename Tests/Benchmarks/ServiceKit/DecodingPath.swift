#if os(macOS) || os(Linux)  // The benchmarks start child processes (Process), which iOS, tvOS and watchOS lack.
import Foundation

/// The in-memory ways of turning the payload into `[User]` whose peak memory is compared.
enum DecodingPath: String {
    case jsonDecoder = "jsondecoder"
    case decodable
    case mapped

    func decode(_ data: Data) throws -> [User] {
        switch self {
        case .jsonDecoder: try decodeWithJSONDecoder(data)
        case .decodable: try decodeThroughService(DecodableUsersService(), data)
        case .mapped: try decodeThroughService(MappedUsersService(), data)
        }
    }

    /// Runs `servicekit-bench --peak-memory PATH` and reads the kilobytes it prints; `nil` where the
    /// platform cannot measure.
    func peakMemoryGrowthInChildProcess(users: Int) throws -> Int? {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        child.arguments = ["--peak-memory", rawValue, "--users", String(users)]
        let output = Pipe()
        child.standardOutput = output
        try child.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        child.waitUntilExit()
        return Int(String(decoding: printed, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The peak growth of this process's resident memory while decoding the payload, the result kept
    /// alive until the peak is read. Decodes a small payload first so that code and lazily built state
    /// (formatters, metadata) are not counted.
    func measurePeakMemoryGrowth(users: Int) throws -> Int? {
        _ = try decode(GitHubUsersPayload.json(users: 10))
        let payload = GitHubUsersPayload.json(users: users)
        return try peakMemoryGrowth { withExtendedLifetime(try decode(payload)) {} }
    }
}
#endif

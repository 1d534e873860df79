import Foundation
import Testing

/// The build folder holding the test products and the `recorder` binary. On Linux the bundle URL is
/// that folder; on macOS it is the `.xctest` bundle inside it.
func productsFolder() -> URL {
    let bundle = Bundle(for: Marker.self).bundleURL
    return bundle.pathExtension == "xctest" ? bundle.deletingLastPathComponent() : bundle
}

/// Runs the built `recorder` binary and collects its exit status and output.
func runRecorder(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    let products = productsFolder()
    let process = Process()
    process.executableURL = products.appendingPathComponent("recorder")
    process.arguments = arguments
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
}

private final class Marker {}

@Suite struct HelpTests {
    @Test func help_exitsZero_andNamesTheTool() throws {
        let result = try runRecorder(["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("usage: recorder"))
    }

    @Test func unknownCommand_exitsTwo_withOneSentence() throws {
        let result = try runRecorder(["frobnicate"])
        #expect(result.status == 2)
        #expect(result.stderr == "recorder: unknown command 'frobnicate'; run `recorder --help` for the list.\n")
    }
}

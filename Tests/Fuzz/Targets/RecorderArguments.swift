// The recorder's argument parsing: NUL-separated words parsed against a command's options and flags,
// then read the way the commands read them. Every outcome is a value or a usage error, never a crash.
import Foundation
@testable import recorder

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRecorderArguments(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let words = FuzzInput(start, count).text.split(separator: "\0", omittingEmptySubsequences: false).map(String.init)
    let parsed: Arguments
    do throws(RecorderError) {
        // The options and flags of `replay` and `capture` together: every way of giving a value is covered.
        parsed = try Arguments(
            words, options: ["port", "fault", "faults", "seed", "upstream", "out"],
            flags: ["strict", "quiet", "overwrite"], command: "fuzz")
    } catch {
        return 0
    }
    _ = try? parsed.integer("port", in: 0...65535)
    _ = try? parsed.single("upstream")
    _ = try? parsed.required("out")
    _ = parsed.all("fault")
    _ = parsed.flag("strict")
    _ = try? parsed.expectPositionals(0...2, what: "up to two cassettes", command: "fuzz")
    // The help paths run no command: `recorder`, `recorder --help`, `recorder help NAME`, unknown names.
    if let first = words.first, Recorder.command(named: first) == nil || words.contains("--help") {
        _ = Recorder.help
    }
    return 0
}

import Foundation
@testable import MockServer
@testable import MockServerWire
import ServiceReplayShared
import Testing
import ServiceReplayTestSupport

/// MockServer parses JSON (request bodies it matches, cassettes) on its event-loop threads, recursing once
/// per nesting level up to 512. Those threads get an explicit stack (``EventLoop/threadStackSize``) because
/// the platforms' defaults differ: 8 MiB on Linux, 512 KiB for Darwin's secondary threads, which is too
/// little: a debug build needs about 2.5 KiB a level, so 512 levels overflow 1 MiB (measured here).
@Suite struct DeepJSONSmallStackTests {
    static let atLimit = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
    static let pastLimit = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)

    @Test func cassetteParser_atAndPastTheLimit_onAnEventLoopThreadsStack() {
        let (reserialized, refusal) = runOnThread(stackSize: EventLoop.threadStackSize) {
            let reserialized = (try? CassetteJSON(parsing: Self.atLimit)).map { String(decoding: $0.serialized(), as: UTF8.self) }
            var refusal: String?
            do {
                _ = try CassetteJSON(parsing: Self.pastLimit)
            } catch let error as JSONParseError {
                refusal = "line \(error.line), column \(error.column): \(error.problem)"
            } catch {
                refusal = "\(error)"
            }
            return (reserialized, refusal)
        }
        #expect(reserialized == Self.atLimit)
        #expect(refusal == "line 1, column 513: nesting deeper than 512 levels")
    }

    @Test func eventLoopThreads_getTheSameStackOnEveryPlatform_enoughForTheParsersLimit() {
        // 512 levels at about 2.5 KiB each (debug build), with room for the handler below them
        #expect(EventLoop.threadStackSize >= 4 << 20)
    }
}

// Fault specs in the CLI spelling (`--fault`, MOCKSERVER_FAULTS): any text either fails with a
// MockServerError or gives rules whose own spelling parses back to the same rules.
import Foundation
@testable import MockServer

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFaultSpec(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let text = FuzzInput(start, count).text
    guard let plan = try? FaultPlan.parse(specs: text) else { return 0 }
    for rule in plan.rules {
        do {
            let reparsed = try FaultRule.parse(spec: rule.description)
            require(reparsed == rule, "'\(rule)' parses to '\(reparsed)'")
        } catch {
            fatalError("fuzz invariant broken: the spelling '\(rule)' of a parsed rule does not parse: \(error)")
        }
    }
    return 0
}

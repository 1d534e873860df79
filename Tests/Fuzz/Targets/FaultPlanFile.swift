// Fault plan files: any bytes either fail with a MockServerError or give a plan whose rules' spellings parse
// back to rules with the same spelling (a status rule's headers and body have none), unless a value has no
// CLI spelling (see Fault).
import Foundation
@testable import MockServer

/// Whether every value of `rule` can be written in the CLI spelling: no comma (not even one that a combining
/// mark joins into one Character with it), no white space at either end (as the spec parser trims it).
private func isSpellable(_ rule: FaultRule) -> Bool {
    var values = [rule.path?.description, rule.method, rule.operation]
    switch rule.fault.kind {
    case .status(_, let retryAfter, _, _): values.append(retryAfter)
    case .contentType(let type): values.append(type)
    case .serviceError(let template): values.append(template)
    case .graphQLError(let code): values.append(code)
    default: break
    }
    return values.compactMap { $0 }.allSatisfy { value in
        !value.unicodeScalars.contains(",") && value == value.trimmingWhitespace() && !value.isEmpty
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFaultPlanFile(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let data = Data(FuzzInput(start, count).bytes)
    guard let plan = try? FaultPlan.decode(json: data) else { return 0 }
    for rule in plan.rules where isSpellable(rule) {
        do {
            let reparsed = try FaultRule.parse(spec: rule.description)
            require(reparsed.description == rule.description, "'\(rule)' parses to '\(reparsed)'")
        } catch {
            fatalError("fuzz invariant broken: the spelling '\(rule)' of a plan file's rule does not parse: \(error)")
        }
    }
    return 0
}

import Foundation
@testable import MockServer
import Testing

/// The plans `.ci/fault-injection` runs the services suite under: valid, random, safe for URLSession on
/// Linux, and aimed at the APIs whose cassettes hold their templates.
@Suite struct CIFaultPlansTests {
    static var planFiles: [URL] {
        get throws {
            let folder = try Recordings.folder.deletingLastPathComponent().appendingPathComponent(".ci/fault-plans")
            return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
                .filter { $0.pathExtension == "json" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
        }
    }

    @Test func everyPlan_loads_andEveryRuleIsRandom() throws {
        // Given the CI plan files
        let files = try Self.planFiles
        try #require(files.count >= 3)
        for file in files {
            // When each is loaded as MOCKSERVER_FAULTS would load it
            let plan = try FaultPlan.load(contentsOf: file)

            // Then it has rules, each with a p: trigger, so the seed decides
            #expect(!plan.rules.isEmpty, "\(file.lastPathComponent) has no rules")
            for rule in plan.rules {
                guard case .probability = rule.trigger else {
                    Issue.record("\(file.lastPathComponent): '\(rule)' does not fire at random")
                    continue
                }
            }
        }
    }

    @Test func thePlans_mixEveryFamily() throws {
        // Given every rule of every plan
        let rules = try Self.planFiles.flatMap { try FaultPlan.load(contentsOf: $0).rules }

        // Then network-, HTTP- and service-level faults all appear
        #expect(Set(rules.map(\.fault.family)) == Set(Fault.Family.allCases))
    }

    @Test func noPlan_truncatesHeaders() throws {
        // A header block cut short makes FoundationNetworking trap (swift-corelibs-foundation issue 5285),
        // which would kill the whole test process instead of failing one call.
        for file in try Self.planFiles {
            let rules = try FaultPlan.load(contentsOf: file).rules
            #expect(!rules.contains { $0.fault.description == "truncate=headers" }, "\(file.lastPathComponent) truncates headers")
        }
    }

    @Test func everyServiceErrorRule_namesATemplateOfTheAPIItsPathSelects() throws {
        // Given the recorded cassettes
        let cassettes = try Recordings.all()
        for file in try Self.planFiles {
            for rule in try FaultPlan.load(contentsOf: file).rules where rule.fault.name == "service-error" {
                // When a rule's path filter selects requests
                let template = String(rule.fault.description.dropFirst("service-error=".count))
                let path = try #require(rule.path, "\(file.lastPathComponent): '\(rule)' has no path filter")
                let selected = cassettes.filter { cassette in cassette.interactions.contains { path.matches($0.request.path) } }

                // Then the cassettes it selects hold the template, so it fires on the right API only
                #expect(!selected.isEmpty, "\(file.lastPathComponent): '\(rule)' selects no recorded request")
                for cassette in selected {
                    #expect(cassette.errorTemplates[template] != nil, "\(file.lastPathComponent): \(cassette.name) has no template \(template)")
                }
            }
        }
    }
}

import Foundation
@testable import MockServer
import Testing

@Suite struct FaultPlanEnvironmentTests {
    @Test func unsetOrBlank_meansNoPlan() throws {
        #expect(try FaultPlan.fromEnvironment([:]) == nil)
        #expect(try FaultPlan.fromEnvironment(["MOCKSERVER_FAULTS": "  ", "MOCKSERVER_SEED": "5"]) == nil)
    }

    @Test func inlineSpecs_withSeed() throws {
        let plan = try FaultPlan.fromEnvironment(["MOCKSERVER_FAULTS": "reset,when=p:0.2;status=503", "MOCKSERVER_SEED": "77"])
        #expect(plan?.description == "seed=77: reset,when=p:0.2; status=503")
    }

    @Test func planFilePath_isLoaded_andTheSeedVariableOverridesItsSeed() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("plan-\(UUID().uuidString).json")
        try Data(#"{"seed": 3, "rules": [{"fault": "empty", "when": "nth:2"}]}"#.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try FaultPlan.fromEnvironment(["MOCKSERVER_FAULTS": url.path])?.description == "seed=3: empty,when=nth:2")
        #expect(try FaultPlan.fromEnvironment(["MOCKSERVER_FAULTS": url.path, "MOCKSERVER_SEED": "8"])?.seed == 8)
    }

    @Test(arguments: [
        (["MOCKSERVER_FAULTS": "reset", "MOCKSERVER_SEED": "abc"], "MOCKSERVER_SEED 'abc' is not a whole number from 0 to 2^64-1"),
        (
            ["MOCKSERVER_FAULTS": "boom"],
            "MOCKSERVER_FAULTS: invalid fault spec 'boom': 'boom' is not a fault kind; use one of refuse, reset, empty, truncate, malformed-chunk, garbage, stall, latency, throttle, status, corrupt-body, empty-body, content-type, service-error, event-latency, error-event, graphql-error, ws-drop, ws-close, ws-malformed, ws-stall, ws-delay"
        ),
    ])
    func badEnvironment_throwsOneSentence(environment: [String: String], message: String) {
        #expect(throws: MockServerError(.invalidFaultPlan, message)) { try FaultPlan.fromEnvironment(environment) }
    }

    @Test func missingPlanFile_namesTheVariableAndThePath() {
        let error = #expect(throws: MockServerError.self) {
            try FaultPlan.fromEnvironment(["MOCKSERVER_FAULTS": "/nonexistent/plan.json"])
        }
        #expect(error?.description.hasPrefix("MOCKSERVER_FAULTS: cannot read fault plan /nonexistent/plan.json: ") == true)
    }
}

import Foundation
@testable import MockServer
import Testing

@Suite struct FaultPlanFileTests {
    @Test func planFile_readsEveryKindsJSONSpelling() throws {
        let json = """
            {"seed": 42, "rules": [
              {"fault": "refuse", "when": "first:1"},
              {"fault": "truncate", "at": "body", "bytes": 10, "path": "/users*"},
              {"fault": "truncate", "at": "headers"},
              {"fault": "garbage", "bytes": 64},
              {"fault": "latency", "ms": 200},
              {"fault": "latency", "minMs": 100, "maxMs": 300, "when": "p:0.5"},
              {"fault": "latency", "medianMs": 120, "sigma": 0.5},
              {"fault": "throttle", "bytesPerSecond": 250},
              {"fault": "status", "status": 429, "retryAfter": "2", "headers": [["X-Why", "test"]], "body": {"json": {"message": "slow down"}}, "method": "GET"},
              {"fault": "content-type", "contentType": "text/html"},
              {"fault": "service-error", "template": "throttle_violation", "when": "every:3"},
              {"fault": "stall"}
            ]}
            """
        let plan = try FaultPlan.decode(json: Data(json.utf8))
        #expect(plan.seed == 42)
        #expect(
            plan.rules.map(\.description) == [
                "refuse,when=first:1", "truncate=body:10,path=/users*", "truncate=headers", "garbage=64", "latency=200ms",
                "latency=100..300ms,when=p:0.5", "latency=lognormal:120ms:0.5", "throttle=250B/s",
                "status=429,retry-after=2,method=GET", "content-type=text/html", "service-error=throttle_violation,when=every:3", "stall",
            ])
        #expect(plan.rules[8].fault == .status(429, retryAfter: "2", headers: ["X-Why": "test"], body: Data(#"{"message":"slow down"}"#.utf8)))
    }

    @Test func fastestThrottle_readsTheSameFromAPlanFileASpecAndCode() throws {
        let plan = try FaultPlan.decode(json: Data(#"{"rules": [{"fault": "throttle", "bytesPerSecond": 1099511627776}]}"#.utf8))
        #expect(plan.rules[0].description == "throttle=1099511627776B/s")
        #expect(try FaultRule.parse(spec: plan.rules[0].description).fault == plan.rules[0].fault)
        #expect(Fault.throttle(bytesPerSecond: .max) == plan.rules[0].fault)
        let error = #expect(throws: MockServerError.self) { try FaultRule.parse(spec: "throttle=1099511627777B/s") }
        #expect(
            error?.description
                == "invalid fault spec 'throttle=1099511627777B/s': throttle takes a rate such as 2kbps, 64KB/s or 500B/s, from 1 byte to 1 TB per second")
    }

    @Test func planWithoutSeed_usesTheDefaultSeed() throws {
        let plan = try FaultPlan.decode(json: Data(#"{"rules": [{"fault": "reset"}]}"#.utf8))
        #expect(plan.seed == FaultPlan.defaultSeed)
    }

    @Test(arguments: [
        ("[]", "the top level must be an object with \"seed\" and \"rules\""),
        ("{", "it is not valid JSON"),
        (#"{"seed": -1, "rules": []}"#, "\"seed\" must be a whole number from 0 to 2^64-1"),
        (#"{"seed": 1}"#, "\"rules\" must be a list of rule objects"),
        (#"{"rules": [], "seeds": 1}"#, "key \"seeds\" is not one of \"seed\", \"rules\""),
        (#"{"rules": [3]}"#, "rule 1 must be an object"),
        (#"{"rules": [{"when": "always"}]}"#, "rule 1: \"fault\" is missing"),
        (#"{"rules": [{"fault": "reset"}, {"fault": "reset", "bytes": 3}]}"#, "rule 2: key \"bytes\" is not one of \"fault\", \"when\", \"path\", \"method\""),
        (#"{"rules": [{"fault": "truncate", "at": "body"}]}"#, "rule 1: \"bytes\" is missing"),
        (#"{"rules": [{"fault": "status", "status": 700}]}"#, "rule 1: \"status\" must be a whole number from 100 to 599"),
        (
            #"{"rules": [{"fault": "status", "status": 500, "body": {"xml": "<a/>"}}]}"#,
            "rule 1: \"body\" must be one of {\"json\": ...}, {\"text\": \"...\"} or {\"base64\": \"...\"}"
        ),
        (#"{"rules": [{"fault": "status", "status": 500, "headers": [["A"]]}]}"#, "rule 1: \"headers\" must be a list of [name, value] string pairs"),
        (#"{"rules": [{"fault": "latency"}]}"#, "rule 1: latency needs \"ms\", or \"minMs\" and \"maxMs\", or \"medianMs\" and \"sigma\""),
        (#"{"rules": [{"fault": "latency", "minMs": 300, "maxMs": 100}]}"#, "rule 1: \"maxMs\" must be a whole number from 300 to 3600000"),
        (#"{"rules": [{"fault": "reset", "when": "often"}]}"#, "rule 1: trigger 'often' is not one of always, first:N, nth:N, every:N or p:P"),
        // Found by the FaultPlanFile fuzz target: a rate the CLI spelling could not read back.
        (
            #"{"rules": [{"fault": "throttle", "bytesPerSecond": 6222222222222536}]}"#,
            "rule 1: \"bytesPerSecond\" must be a whole number from 1 to 1099511627776"
        ),
        (
            #"{"rules": [{"fault": "refuse", "path": "/a"}]}"#,
            "rule 1 ('refuse,path=/a'): refuse acts before a request is read, so it cannot be filtered by path or method"
        ),
    ])
    func badPlan_throwsOneSentenceNamingThePart(json: String, message: String) {
        #expect(throws: MockServerError(.invalidFaultPlan, message)) { try FaultPlan.decode(json: Data(json.utf8)) }
    }

    @Test func planFileError_namesTheFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("plan-\(UUID().uuidString).json")
        try Data(#"{"rules": [{"fault": "nope"}]}"#.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let error = #expect(throws: MockServerError.self) { try FaultPlan.load(contentsOf: url) }
        #expect(error?.description.hasPrefix("fault plan \(url.path): rule 1: 'nope' is not a fault kind") == true)
    }
}

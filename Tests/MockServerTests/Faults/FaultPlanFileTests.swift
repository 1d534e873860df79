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
        (
            "{",
            "invalid JSON at line 1, column 2: expected a string key in an object, found end of input; the file ends before its JSON does, so it was cut short"
        ),
        ("{\"rules\": [\n  {\"fault\": \"reset\",}\n]}", "invalid JSON at line 2, column 21: expected a string key in an object, found '}'"),
        (#"{"rules": [], "rules": []}"#, "invalid JSON at line 1, column 15: duplicate key \"rules\" in an object"),
        (#"{"seed": 1.5, "rules": []}"#, "\"seed\" must be a whole number from 0 to 2^64-1"),
        (#"{"seed": 18446744073709551616, "rules": []}"#, "\"seed\" must be a whole number from 0 to 2^64-1"),
        (#"{"seed": true, "rules": []}"#, "\"seed\" must be a whole number from 0 to 2^64-1"),
        (#"{"seed": "42", "rules": []}"#, "\"seed\" must be a whole number from 0 to 2^64-1"),
        (#"{"rules": {}}"#, "\"rules\" must be a list of rule objects"),
        (#"{"rules": [{"fault": "garbage", "bytes": 1.5}]}"#, "rule 1: \"bytes\" must be a whole number from 1 to 1048576"),
        (#"{"rules": [{"fault": "latency", "ms": true}]}"#, "rule 1: \"ms\" must be a whole number from 0 to 3600000"),
        (#"{"rules": [{"fault": "latency", "medianMs": 9, "sigma": true}]}"#, "rule 1: \"sigma\" must be a number above 0 and at most 5"),
        (#"{"rules": [{"fault": "latency", "medianMs": 9, "sigma": 0}]}"#, "rule 1: \"sigma\" must be a number above 0 and at most 5"),
        (#"{"rules": [{"fault": "latency", "medianMs": 9, "sigma": 5.5}]}"#, "rule 1: \"sigma\" must be a number above 0 and at most 5"),
        (#"{"rules": [{"fault": "reset", "path": ""}]}"#, "rule 1: \"path\" must be a non-empty string"),
        (#"{"rules": [{"fault": "reset", "method": 3}]}"#, "rule 1: \"method\" must be a non-empty string"),
        (#"{"rules": [{"fault": "status", "status": 500, "headers": {"A": "b"}}]}"#, "rule 1: \"headers\" must be a list of [name, value] string pairs"),
        (#"{"rules": [{"fault": "status", "status": 500, "headers": [["A", 1]]}]}"#, "rule 1: \"headers\" must be a list of [name, value] string pairs"),
        (#"{"rules": [{"fault": "status", "status": 500, "headers": [["A", "b", "c"]]}]}"#, "rule 1: \"headers\" must be a list of [name, value] string pairs"),
        (
            #"{"rules": [{"fault": "status", "status": 500, "body": {"json": 1, "text": "a"}}]}"#,
            "rule 1: \"body\" must be one of {\"json\": ...}, {\"text\": \"...\"} or {\"base64\": \"...\"}"
        ),
        (
            #"{"rules": [{"fault": "status", "status": 500, "body": {"text": 1}}]}"#,
            "rule 1: \"body\" must be one of {\"json\": ...}, {\"text\": \"...\"} or {\"base64\": \"...\"}"
        ),
        (
            #"{"rules": [{"fault": "status", "status": 500, "body": {"base64": "*"}}]}"#,
            "rule 1: \"body\" must be one of {\"json\": ...}, {\"text\": \"...\"} or {\"base64\": \"...\"}"
        ),
        (#"{"seed": -1, "rules": []}"#, "\"seed\" must be a whole number from 0 to 2^64-1"),
        (#"{"seed": 1}"#, "\"rules\" must be a list of rule objects"),
        (#"{"rules": [], "seeds": 1}"#, "key \"seeds\" is not one of \"seed\", \"rules\""),
        (#"{"rules": [3]}"#, "rule 1 must be an object"),
        (#"{"rules": [{"when": "always"}]}"#, "rule 1: \"fault\" is missing"),
        (
            #"{"rules": [{"fault": "reset"}, {"fault": "reset", "bytes": 3}]}"#,
            "rule 2: key \"bytes\" is not one of \"fault\", \"when\", \"path\", \"method\", \"operation\""
        ),
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
            "rule 1 ('refuse,path=/a'): refuse acts before a request is read, so it cannot be filtered by path, method or operation"
        ),
    ])
    func badPlan_throwsOneSentenceNamingThePart(json: String, message: String) {
        #expect(throws: MockServerError(.invalidFaultPlan, message)) { try FaultPlan.decode(json: Data(json.utf8)) }
    }

    @Test(arguments: [
        ("18446744073709551615", UInt64.max),
        // 2^53 + 1: a double would round it to 2^53.
        ("9007199254740993", 9_007_199_254_740_993),
        ("0", 0), ("-0", 0), ("7.0", 7), ("1e3", 1000),
    ])
    func seed_isReadExactlyFromItsDigits(literal: String, seed: UInt64) throws {
        let plan = try FaultPlan.decode(json: Data(#"{"seed": \#(literal), "rules": []}"#.utf8))
        #expect(plan.seed == seed)
    }

    @Test func wholeNumbers_mayBeWrittenWithAFractionOrExponent() throws {
        let plan = try FaultPlan.decode(json: Data(#"{"rules": [{"fault": "garbage", "bytes": 64.0}, {"fault": "latency", "ms": 2e2}]}"#.utf8))
        #expect(plan.rules.map(\.description) == ["garbage=64", "latency=200ms"])
    }

    @Test func sigma_mayBeAnyNumberUpToFive() throws {
        let plan = try FaultPlan.decode(
            json: Data(#"{"rules": [{"fault": "latency", "medianMs": 9, "sigma": 5}, {"fault": "latency", "medianMs": 9, "sigma": 1e-3}]}"#.utf8))
        #expect(plan.rules.map(\.description) == ["latency=lognormal:9ms:5.0", "latency=lognormal:9ms:0.001"])
    }

    @Test func jsonBody_isSentAsACassettesJSONBodyIs_inTheFilesOrderWithItsNumbersAsWritten() throws {
        let value = #"{"zeta": [1.50, 1e2, -0], "alpha": {"url": "https://x/y", "name": "Zoë\u0007"}, "n": 18446744073709551617}"#
        let plan = try FaultPlan.decode(json: Data(#"{"rules": [{"fault": "status", "status": 503, "body": {"json": \#(value)}}]}"#.utf8))
        guard case .status(_, _, _, let body) = plan.rules[0].fault.kind else {
            Issue.record("expected a status fault, got \(plan.rules[0])")
            return
        }
        let expected = #"{"zeta":[1.50,1e2,-0],"alpha":{"url":"https://x/y","name":"Zoë\u0007"},"n":18446744073709551617}"#
        #expect(String(decoding: body, as: UTF8.self) == expected)
        // AND a cassette holding the same body replays the same bytes
        let cassette = try Cassette(
            jsonData: Data(
                #"{"format": "servicereplay-cassette", "version": 1, "interactions": [{"request": {"method": "GET", "target": "/"}, "response": {"status": 503, "body": {"json": \#(value)}}}]}"#
                    .utf8), source: "c.json")
        #expect(cassette.interactions[0].response?.body.data == body)
    }

    @Test func brokenPlan_readsAsABrokenCassetteDoes() throws {
        for text in ["{\"rules\": [\n  {\"fault\": \"reset\",}\n]}", "{\"rules\": [", "{\"rules\": [\"\\x\"]}"] {
            let planError = #expect(throws: MockServerError.self) { try FaultPlan.decode(json: Data(text.utf8)) }
            let cassetteError = #expect(throws: MockServerError.self) { try Cassette(jsonData: Data(text.utf8), source: "c.json") }
            #expect(planError?.reason == cassetteError?.reason, "\(text)")
        }
    }

    @Test func planFileError_namesTheFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("plan-\(UUID().uuidString).json")
        try Data(#"{"rules": [{"fault": "nope"}]}"#.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let error = #expect(throws: MockServerError.self) { try FaultPlan.load(contentsOf: url) }
        #expect(error?.description.hasPrefix("fault plan \(url.path): rule 1: 'nope' is not a fault kind") == true)
        try Data("{\"rules\": [\n]]".utf8).write(to: url)
        let syntax = #expect(throws: MockServerError.self) { try FaultPlan.load(contentsOf: url) }
        #expect(syntax?.description == "fault plan \(url.path): invalid JSON at line 2, column 2: expected ',' or '}' after an object member, found ']'")
    }
}

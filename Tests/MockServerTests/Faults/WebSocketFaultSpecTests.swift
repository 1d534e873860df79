import Foundation
@testable import MockServer
import Testing

/// The WebSocket faults' spellings (CLI, plan file, code) and the rules they follow before any socket opens.
@Suite struct WebSocketFaultSpecTests {
    // Given a spec in the CLI spelling, when it is parsed, then its description spells the same rule.
    @Test(arguments: [
        ("ws-drop", "ws-drop"),
        ("ws-drop=0", "ws-drop"),
        ("ws-drop=2", "ws-drop=2"),
        ("ws-close=1011", "ws-close=1011"),
        ("ws-close=1001,after=0", "ws-close=1001"),
        ("ws-close=4001,after=2,when=first:1", "ws-close=4001,after=2,when=first:1"),
        ("ws-malformed", "ws-malformed"),
        ("ws-malformed=1", "ws-malformed=1"),
        ("ws-stall=3", "ws-stall=3"),
        ("ws-delay=500ms", "ws-delay=500ms"),
        ("ws-delay=1.5s,after=1", "ws-delay=1500ms,after=1"),
        (" ws-drop=1 , when=p:0.5 , path=/stream* ", "ws-drop=1,when=p:0.5,path=/stream*"),
    ])
    func spec_parses_andSpellsBack(spec: String, spelled: String) throws {
        let rule = try FaultRule.parse(spec: spec)
        #expect(rule.description == spelled)
        #expect(try FaultRule.parse(spec: rule.description) == rule)
    }

    // Given a fault built by a public factory, then it is the fault its CLI spelling parses to.
    @Test(arguments: [
        (Fault.webSocketDrop(), "ws-drop"),
        (.webSocketDrop(afterMessages: 2), "ws-drop=2"),
        (.webSocketDrop(afterMessages: -1), "ws-drop"),
        (.webSocketClose(code: 1011, afterMessages: 1), "ws-close=1011,after=1"),
        (.webSocketMalformedFrame(), "ws-malformed"),
        (.webSocketStall(afterMessages: 3), "ws-stall=3"),
        (.webSocketDelay(.milliseconds(500), afterMessages: 1), "ws-delay=500ms,after=1"),
        (.webSocketDelay(.milliseconds(-5)), "ws-delay=0ms"),
    ])
    func factory_isTheFaultItsSpellingParsesTo(fault: Fault, spec: String) throws {
        #expect(fault.description == spec)
        #expect(try FaultRule.parse(spec: spec).fault == fault)
    }

    @Test func plan_roundTripsThroughItsDescription() throws {
        let plan = try FaultPlan.parse(specs: "ws-drop=1,path=/ticks; ws-close=1001,after=2,when=nth:2; ws-delay=20ms,after=1; ws-stall", seed: 7)
        let again = try FaultPlan.parse(specs: plan.rules.map(\.description).joined(separator: "; "), seed: 7)
        #expect(again == plan)
        #expect(plan.description == "seed=7: ws-drop=1,path=/ticks; ws-close=1001,after=2,when=nth:2; ws-delay=20ms,after=1; ws-stall")
    }

    // Given a bad spec, then the error is one sentence naming the spec and its bad part, word for word.
    @Test(arguments: [
        ("ws-close", "invalid fault spec 'ws-close': ws-close needs an argument, as in ws-close=1011"),
        (
            "ws-close=1006",
            "invalid fault spec 'ws-close=1006': ws-close takes a close code a server may send (1000–1003, 1007–1014 or 3000–4999, such as ws-close=1011), not 1006"
        ),
        (
            "ws-close=70000",
            "invalid fault spec 'ws-close=70000': ws-close takes a close code a server may send (1000–1003, 1007–1014 or 3000–4999, such as ws-close=1011), not 70000"
        ),
        (
            "ws-close=1011,after=-1",
            "invalid fault spec 'ws-close=1011,after=-1': after takes a number of server messages, such as after=2"
        ),
        ("ws-drop=x", "invalid fault spec 'ws-drop=x': ws-drop takes a number of server messages to send first, such as ws-drop=2"),
        ("ws-stall=-1", "invalid fault spec 'ws-stall=-1': ws-stall takes a number of server messages to send first, such as ws-stall=2"),
        ("ws-drop,after=2", "invalid fault spec 'ws-drop,after=2': option 'after' is not one of when, path, method, operation"),
        ("ws-delay", "invalid fault spec 'ws-delay': ws-delay needs an argument, as in ws-delay=500ms"),
        ("ws-delay=soon", "invalid fault spec 'ws-delay=soon': ws-delay takes a duration of at most an hour, such as ws-delay=500ms or ws-delay=1.5s"),
        ("ws-delay=2h", "invalid fault spec 'ws-delay=2h': ws-delay takes a duration of at most an hour, such as ws-delay=500ms or ws-delay=1.5s"),
    ])
    func badSpec_throwsOneSentence(spec: String, message: String) {
        #expect(throws: MockServerError(.invalidFaultPlan, message)) { try FaultRule.parse(spec: spec) }
    }

    @Test func planInCode_refusesACloseCodeNoServerMaySend() {
        #expect(
            throws: MockServerError(
                .invalidFaultPlan,
                "rule 1 ('ws-close=1005'): ws-close takes a close code a server may send (1000–1003, 1007–1014 or 3000–4999, such as ws-close=1011), not 1005"
            )
        ) { try FaultPlan(rules: [FaultRule(.webSocketClose(code: 1005))]) }
    }

    @Test func planFile_readsEveryWebSocketKind() throws {
        let json = """
            {"seed": 3, "rules": [
              {"fault": "ws-drop", "afterMessages": 2},
              {"fault": "ws-close", "code": 1011, "afterMessages": 1, "path": "/ticks"},
              {"fault": "ws-malformed"},
              {"fault": "ws-stall", "afterMessages": 3},
              {"fault": "ws-delay", "ms": 250, "afterMessages": 1, "when": "first:2"}
            ]}
            """
        let plan = try FaultPlan.decode(json: Data(json.utf8))
        #expect(plan.description == "seed=3: ws-drop=2; ws-close=1011,after=1,path=/ticks; ws-malformed; ws-stall=3; ws-delay=250ms,after=1,when=first:2")
    }

    @Test(arguments: [
        (
            #"{"rules": [{"fault": "ws-close", "code": 1006}]}"#,
            "rule 1: ws-close takes a close code a server may send (1000–1003, 1007–1014 or 3000–4999, such as ws-close=1011), not 1006"
        ),
        (#"{"rules": [{"fault": "ws-close"}]}"#, "rule 1: \"code\" is missing"),
        (#"{"rules": [{"fault": "ws-close", "code": 70000}]}"#, "rule 1: \"code\" must be a whole number from 0 to 65535"),
        (#"{"rules": [{"fault": "ws-drop", "afterMessages": -1}]}"#, "rule 1: \"afterMessages\" must be a whole number at least 0"),
        (#"{"rules": [{"fault": "ws-delay"}]}"#, "rule 1: \"ms\" is missing"),
        (
            #"{"rules": [{"fault": "ws-stall", "afterEvents": 1}]}"#,
            "rule 1: key \"afterEvents\" is not one of \"fault\", \"when\", \"path\", \"method\", \"operation\", \"afterMessages\""
        ),
    ])
    func badPlanFile_throwsOneSentenceNamingThePart(json: String, message: String) {
        #expect(throws: MockServerError(.invalidFaultPlan, message)) { try FaultPlan.decode(json: Data(json.utf8)) }
    }

    // An application's own close code is the service's error, as ServiceKit reads it; every other one is the network's.
    @Test(arguments: [
        (Fault.webSocketClose(code: 4001), Fault.Family.service),
        (.webSocketClose(code: 1011), .network),
        (.webSocketClose(code: 3000), .network),
        (.webSocketDrop(), .network),
        (.webSocketMalformedFrame(), .network),
        (.webSocketStall(), .network),
        (.webSocketDelay(.milliseconds(1)), .network),
    ])
    func family(fault: Fault, family: Fault.Family) {
        #expect(fault.family == family)
    }

    @Test func injector_considersAWebSocketRuleForUpgradesOnly_soItsTriggerCountsConversations() throws {
        // Given `ws-drop,when=nth:2` and a status rule after it
        let injector = FaultInjector(plan: try FaultPlan.parse(specs: "ws-drop,when=nth:2; status=503"))
        let plain = RequestParts(method: "GET", target: "/ticks", headers: [:], body: .empty)
        let upgrade = RequestParts(method: "GET", target: "/ticks", headers: ["Upgrade": "websocket", "Connection": "keep-alive, Upgrade"], body: .empty)
        // When plain requests and upgrades alternate
        let names = [plain, upgrade, plain, upgrade, upgrade].map { injector.decision(for: $0)?.fault.name }
        // Then plain requests meet only the status rule, and the WebSocket rule fires on the second upgrade
        #expect(names == ["status", "status", "status", "ws-drop", "status"])
    }
}

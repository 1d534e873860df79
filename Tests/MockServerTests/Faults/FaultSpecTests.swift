import Foundation
@testable import MockServer
import Testing

@Suite struct FaultSpecTests {
    // Given a spec in the CLI spelling, when it is parsed, then its description spells the same rule.
    @Test(arguments: [
        ("reset", "reset"),
        ("refuse", "refuse"),
        ("empty", "empty"),
        ("stall", "stall"),
        ("malformed-chunk", "malformed-chunk"),
        ("garbage", "garbage=256"),
        ("garbage=12", "garbage=12"),
        ("truncate=status-line", "truncate=status-line"),
        ("truncate=headers", "truncate=headers"),
        ("truncate=body:10", "truncate=body:10"),
        ("latency=200ms", "latency=200ms"),
        ("latency=1.5s", "latency=1500ms"),
        ("latency=100..300ms", "latency=100..300ms"),
        ("latency=lognormal:120ms:0.5", "latency=lognormal:120ms:0.5"),
        ("throttle=2kbps", "throttle=250B/s"),
        ("throttle=64KB/s", "throttle=65536B/s"),
        ("throttle=500B/s", "throttle=500B/s"),
        ("status=503", "status=503"),
        ("status=503,retry-after=7", "status=503,retry-after=7"),
        ("corrupt-body", "corrupt-body"),
        ("empty-body", "empty-body"),
        ("content-type=text/html", "content-type=text/html"),
        ("service-error=throttle_violation", "service-error=throttle_violation"),
        ("truncate=event:3", "truncate=event:3"),
        ("stall=event:2", "stall=event:2"),
        ("event-latency=100..300ms", "event-latency=100..300ms"),
        ("error-event=server_error", "error-event=server_error,after=0"),
        ("error-event=server_error,after=4,when=first:1", "error-event=server_error,after=4,when=first:1"),
        ("status=503,when=first:2", "status=503,when=first:2"),
        (" latency=100..300ms , when=p:0.5 , path=/users* ", "latency=100..300ms,when=p:0.5,path=/users*"),
        ("reset,method=post,when=nth:3", "reset,when=nth:3,method=POST"),
        ("empty,when=every:4,path=/feeds", "empty,when=every:4,path=/feeds"),
    ])
    func spec_parses_andSpellsBack(spec: String, spelled: String) throws {
        let rule = try FaultRule.parse(spec: spec)
        #expect(rule.description == spelled)
        #expect(try FaultRule.parse(spec: rule.description) == rule)
    }

    // Given a fault built by a public factory, then it is the fault its CLI spelling parses to.
    @Test(arguments: [
        (Fault.truncateStatusLine, "truncate=status-line"),
        (.truncateHeaders, "truncate=headers"),
        (.truncateBody(bytes: 10), "truncate=body:10"),
        (.truncateBody(bytes: -1), "truncate=body:0"),
        (.truncate(afterEvents: 3), "truncate=event:3"),
        (.latency(.milliseconds(200)), "latency=200ms"),
        (.latency(.milliseconds(100) ... .milliseconds(300)), "latency=100..300ms"),
        (.latency(median: .milliseconds(120), sigma: 0.5), "latency=lognormal:120ms:0.5"),
        (.eventLatency(.milliseconds(200)), "event-latency=200ms"),
        (.eventLatency(.milliseconds(100) ... .milliseconds(300)), "event-latency=100..300ms"),
        (.eventLatency(median: .milliseconds(120), sigma: 0.5), "event-latency=lognormal:120ms:0.5"),
    ])
    func factory_isTheFaultItsSpellingParsesTo(fault: Fault, spec: String) throws {
        #expect(fault.description == spec)
        #expect(try FaultRule.parse(spec: spec).fault == fault)
    }

    // Given a bad spec, then the error is one sentence naming the spec and its bad part, word for word.
    @Test(arguments: [
        ("", "invalid fault spec '': it names no fault kind"),
        (
            "explode",
            "invalid fault spec 'explode': 'explode' is not a fault kind; use one of refuse, reset, empty, truncate, malformed-chunk, garbage, stall, latency, throttle, status, corrupt-body, empty-body, content-type, service-error, event-latency, error-event, graphql-error, ws-drop, ws-close, ws-malformed, ws-stall, ws-delay"
        ),
        ("reset=3", "invalid fault spec 'reset=3': reset takes no argument"),
        ("truncate", "invalid fault spec 'truncate': truncate needs an argument, as in truncate=body:10"),
        ("truncate=middle", "invalid fault spec 'truncate=middle': truncate takes status-line, headers, body:N or event:N, such as truncate=body:10"),
        // Found by the FaultSpec fuzz target: a duration too large for the clock trapped instead of failing.
        (
            "latency=2002e150ms",
            "invalid fault spec 'latency=2002e150ms': latency takes a duration of at most an hour such as 200ms or 1.5s, a range such as 100..300ms, or lognormal:120ms:0.5"
        ),
        (
            "latency=1..1e300ms",
            "invalid fault spec 'latency=1..1e300ms': latency range '1..1e300ms' must read LOW..HIGHms with LOW ≤ HIGH ≤ 3600000, such as 100..300ms"
        ),
        (
            "latency=fast",
            "invalid fault spec 'latency=fast': latency takes a duration of at most an hour such as 200ms or 1.5s, a range such as 100..300ms, or lognormal:120ms:0.5"
        ),
        (
            "latency=300..100ms",
            "invalid fault spec 'latency=300..100ms': latency range '300..100ms' must read LOW..HIGHms with LOW ≤ HIGH ≤ 3600000, such as 100..300ms"
        ),
        (
            "latency=lognormal:120ms",
            "invalid fault spec 'latency=lognormal:120ms': latency=lognormal takes a median of at most an hour and a sigma from 0 to 5, such as lognormal:120ms:0.5"
        ),
        ("throttle=fast", "invalid fault spec 'throttle=fast': throttle takes a rate such as 2kbps, 64KB/s or 500B/s, from 1 byte to 1 TB per second"),
        ("throttle=1bps", "invalid fault spec 'throttle=1bps': throttle takes a rate such as 2kbps, 64KB/s or 500B/s, from 1 byte to 1 TB per second"),
        ("status=99", "invalid fault spec 'status=99': status takes an HTTP status code from 100 to 599, such as status=503"),
        ("status=abc", "invalid fault spec 'status=abc': status takes an HTTP status code from 100 to 599, such as status=503"),
        ("content-type=html", "invalid fault spec 'content-type=html': content-type 'html' is not a media type such as text/html"),
        ("garbage=0", "invalid fault spec 'garbage=0': garbage takes a byte count from 1 to 1048576, such as garbage=256"),
        ("reset,when=sometimes", "invalid fault spec 'reset,when=sometimes': trigger 'sometimes' is not one of always, first:N, nth:N, every:N or p:P"),
        ("reset,when=first:0", "invalid fault spec 'reset,when=first:0': trigger 'first:0' needs a whole number of at least 1, such as first:2"),
        ("reset,when=p:1.5", "invalid fault spec 'reset,when=p:1.5': trigger 'p:1.5' needs a probability from 0 to 1, such as p:0.1"),
        ("reset,when=", "invalid fault spec 'reset,when=': option 'when=' needs a value, as in when=first:2"),
        ("reset,path=/a,path=/b", "invalid fault spec 'reset,path=/a,path=/b': option 'path' is given twice"),
        ("reset,colour=red", "invalid fault spec 'reset,colour=red': option 'colour' is not one of when, path, method, operation"),
        ("reset,retry-after=3", "invalid fault spec 'reset,retry-after=3': option 'retry-after' is not one of when, path, method, operation"),
        ("status=503,colour=red", "invalid fault spec 'status=503,colour=red': option 'colour' is not one of when, path, method, operation, retry-after"),
        ("reset,method=G-T", "invalid fault spec 'reset,method=G-T': method 'G-T' is not an HTTP method token"),
        (
            "refuse,path=/users",
            "invalid fault spec 'refuse,path=/users': refuse acts before a request is read, so it cannot be filtered by path, method or operation"
        ),
    ])
    func badSpec_throwsOneSentence(spec: String, message: String) {
        #expect(throws: MockServerError(.invalidFaultPlan, message)) { try FaultRule.parse(spec: spec) }
    }

    @Test func specs_separatedBySemicolons_keepTheirOrder_andSkipBlanks() throws {
        let plan = try FaultPlan.parse(specs: "status=503,when=first:2; ;latency=100..300ms,when=p:0.5,path=/users*;", seed: 9)
        #expect(plan.rules.map(\.description) == ["status=503,when=first:2", "latency=100..300ms,when=p:0.5,path=/users*"])
        #expect(plan.seed == 9)
        #expect(plan.description == "seed=9: status=503,when=first:2; latency=100..300ms,when=p:0.5,path=/users*")
    }

    // Found by the FaultPlanFile fuzz target: a value starting with a combining mark joined the `=` or `,`
    // before it into one Character, so the spelling of a plan file's rule did not parse back.
    @Test func valuesStartingWithACombiningMark_spellAndParseBack() throws {
        let rule = FaultRule(.reset, path: "\u{301}/users", method: nil)
        let spec = rule.description
        #expect(Array(spec.unicodeScalars) == Array("reset,path=\u{301}/users".unicodeScalars))
        let parsed = try FaultRule.parse(spec: spec)
        #expect(parsed.path?.description.unicodeScalars.elementsEqual("\u{301}/users".unicodeScalars) == true)
        #expect(try FaultPlan.parse(specs: "\(spec); empty").rules.map(\.description) == [spec, "empty"])
    }

    @Test func badSpecAmongSeveral_namesThatSpec() {
        #expect(throws: MockServerError(.invalidFaultPlan, "invalid fault spec 'stall=5': stall takes no argument or event:N, such as stall=event:3")) {
            try FaultPlan.parse(specs: "reset; stall=5; empty")
        }
    }

    @Test(arguments: [
        (Fault.refuse, Fault.Family.network), (.reset, .network), (.empty, .network), (.truncate(.headers), .network),
        (.malformedChunk, .network), (.garbage(), .network), (.stall, .network), (.latency(.fixed(.milliseconds(5))), .network),
        (.throttle(bytesPerSecond: 10), .network), (.status(500), .http), (.corruptBody, .http), (.emptyBody, .http),
        (.contentType("text/html"), .http), (.serviceError("x"), .service),
    ])
    func everyKind_belongsToItsFamily(fault: Fault, family: Fault.Family) {
        #expect(fault.family == family)
        #expect(Fault.kindNames.contains(fault.name))
    }
}

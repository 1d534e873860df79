import Foundation
@testable import MockServer
import Testing

/// `service-error` and error-event rules resolve their templates against every cassette a server serves,
/// once, when the server is built; a rule naming a template none of them holds fails the start, naming the
/// rule and the templates there are, instead of quietly serving normal answers.
@Suite struct FaultTemplateTests {
    /// Two cassettes: `things` (GET /thing, template `quota`) and `others` (GET /other, template `rate_limit`).
    static let cassettes: [Cassette] = {
        var things = Cassette(name: "things", interactions: [.stub("GET", "/thing", json: .object(["ok": .bool(true)]))])
        things.errorTemplates["quota"] = RecordedResponse(
            status: 429, headers: ["Content-Type": "application/json"],
            body: .json(.object(["error": .string("quota")])))
        var others = Cassette(name: "others", interactions: [.stub("GET", "/other", json: .object(["ok": .bool(true)]))])
        others.errorTemplates["rate_limit"] = RecordedResponse(
            status: 403, headers: ["Content-Type": "application/json"],
            body: .json(.object(["message": .string("rate limited")])))
        return [things, others]
    }()

    /// The error that starting a server for `cassettes` under `plan` throws, through the call a test makes.
    static func startError(_ plan: FaultPlan, cassettes: [Cassette] = cassettes) async -> MockServerError? {
        await #expect(throws: MockServerError.self) {
            try await withMockServer(cassettes: cassettes, configuration: .init(faults: .plan(plan))) { _ in }
        }
    }

    @Test func serviceErrorNamingNoTemplate_failsTheStart_namingTheRuleAndTheTemplates() async throws {
        // Given a plan built in code whose template no cassette holds
        let plan = try FaultPlan(rules: [FaultRule(.status(503), when: .first(1)), FaultRule(.serviceError("maintenance"))])

        // When a server starts with it, through withMockServer and through CassetteServer
        let error = await Self.startError(plan)
        let direct = await #expect(throws: MockServerError.self) {
            let server = try CassetteServer(cassettes: Self.cassettes, configuration: .init(faults: .plan(plan)))
            try await server.start()
            await server.stop()
        }

        // Then both fail with one sentence naming the rule and the templates there are
        let sentence =
            "rule 2 ('service-error=maintenance'): no cassette served has an error template named 'maintenance'; the templates there are: quota, rate_limit"
        #expect(error?.code == .invalidFaultPlan)
        #expect(error?.description == sentence)
        #expect(direct?.description == sentence)
    }

    @Test func errorEventNamingNoTemplate_failsTheStart_sayingThereAreNone() async throws {
        // Given cassettes without any template, and an error-event rule
        let bare = [Cassette(name: "bare", interactions: [.stub("GET", "/thing", json: .object([:]))])]
        let plan = try FaultPlan.parse(specs: "error-event=server_error,after=1")

        // When a server starts with it
        let error = await Self.startError(plan, cassettes: bare)

        // Then it fails, saying no cassette has templates at all
        #expect(error?.code == .invalidFaultPlan)
        #expect(
            error?.description
                == "rule 1 ('error-event=server_error,after=1'): no cassette served has an error template named 'server_error'; the cassettes served have no error templates"
        )
    }

    @Test func aRuleWhosePathSelectsARecordedRequest_needsItsTemplate() async throws {
        let error = await Self.startError(try FaultPlan.parse(specs: "service-error=maintenance,path=/th*"))
        #expect(
            error?.description
                == "rule 1 ('service-error=maintenance,path=/th*'): no cassette served has an error template named 'maintenance'; the templates there are: quota, rate_limit"
        )
    }

    @Test func aRuleAimedAtAnotherAPI_byAPathNoRecordedRequestHas_isLeftOut() async throws {
        // Given a suite-wide plan: a rule for /feeds (whose cassettes hold `maintenance`), then one for everything
        let plan = try FaultPlan.parse(specs: "service-error=maintenance,path=/feeds; status=502,when=nth:2")
        try await withMockServer(cassettes: Self.cassettes, configuration: .init(faults: .plan(plan))) { server in
            let client = try RawHTTPClient(server.baseURL!)
            // When this server, which records no /feeds request, is asked for /feeds and /thing
            try client.send("GET /feeds HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let feeds = try await client.readResponse()
            try client.send("GET /thing HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let thing = try await client.readResponse()
            // Then the /feeds rule never applies nor counts: the second request meets rule 2's second match
            #expect(feeds.status == 404)
            #expect(thing.status == 502)
        }
    }

    @Test func aTemplateFromAnyServedCassette_answersForEveryPath() async throws {
        // Given a rule naming the second cassette's template
        let plan = try FaultPlan.parse(specs: "service-error=rate_limit,path=/thing")
        try await withMockServer(cassettes: Self.cassettes, configuration: .init(faults: .plan(plan))) { server in
            // When the first cassette's path is asked for
            let client = try RawHTTPClient(server.baseURL!)
            try client.send("GET /thing HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let response = try await client.readResponse()
            // Then the template answers
            #expect(response.status == 403)
            #expect(response.bodyText == #"{"message":"rate limited"}"#)
        }
    }
}

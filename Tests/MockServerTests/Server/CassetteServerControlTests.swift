import Foundation
@testable import MockServer
@testable import MockServerWire
import Testing

/// A running server steered between requests, as a UI test steers it while the app runs: its fault plan set,
/// cleared or refused, its cassettes switched, its sequences reset. Every request goes over loopback.
@Suite struct CassetteServerControlTests {
    /// `shop`: GET /cart (one item) and a sequence of two recorded answers to GET /counter; error template
    /// `maintenance`.
    static let shop: Cassette = {
        var shop = Cassette(
            name: "shop",
            interactions: [
                .stub("GET", "/cart", json: ["items": [1]]),
                .stub("GET", "/counter", json: ["n": 1]),
                .stub("GET", "/counter", json: ["n": 2]),
            ])
        shop.errorTemplates["maintenance"] = RecordedResponse(
            status: 503, headers: ["Content-Type": "application/json"], body: .json(["error": "maintenance"]))
        return shop
    }()

    /// `empty-cart`: GET /cart with no items, and no error template.
    static let emptyCart = Cassette(name: "empty-cart", interactions: [.stub("GET", "/cart", json: ["items": []])])

    static let cart = "GET /cart HTTP/1.1\r\nHost: localhost\r\n\r\n"
    static let counter = "GET /counter HTTP/1.1\r\nHost: localhost\r\n\r\n"

    /// Runs `body` with a server for `cassettes` under `plan` (none: no faults, whatever the environment says)
    /// and a client connected to it. The server sends no `Date` line, so that answers compare byte for byte.
    static func withServer<T>(
        _ cassettes: [Cassette] = [shop], plan: FaultPlan? = nil, _ body: (CassetteServer, RawHTTPClient) async throws -> T
    ) async throws -> T {
        var configuration = CassetteServer.Configuration(faults: plan.map { .plan($0) } ?? .none)
        configuration.server = .forTests
        configuration.server.sendsDateHeader = false
        return try await withMockServer(cassettes: cassettes, configuration: configuration) { server in
            try await body(server, try RawHTTPClient(server.baseURL!))
        }
    }

    /// Sends `request` on `client`'s connection and returns the answer's bytes as they came.
    static func exchange(_ client: RawHTTPClient, _ request: String) async throws -> Data {
        try client.send(request)
        let response = try await client.readResponse()
        return Data((response.head + "\r\n\r\n").utf8) + response.body
    }

    /// ``exchange(_:_:)``'s bytes as text.
    static func text(_ client: RawHTTPClient, _ request: String) async throws -> String {
        let bytes = try await exchange(client, request)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The bytes a fresh server for `cassettes`, started under `plan`, answers `request` with: what a plan set at
    /// run time must send byte for byte.
    static func reference(_ request: String, cassettes: [Cassette] = [shop], plan: FaultPlan? = nil) async throws -> Data {
        try await withServer(cassettes, plan: plan) { _, client in try await exchange(client, request) }
    }

    static func status(of bytes: Data) -> Substring {
        String(decoding: bytes.prefix(12), as: UTF8.self).dropFirst(9)
    }

    @Test func planSetBetweenTwoRequestsOfOneConnection_faultsOnlyTheSecond() async throws {
        // Given a server without a plan, and the bytes a server started with and without the plan sends
        let plan = try FaultPlan.parse(specs: "status=503,path=/cart")
        let plain = try await Self.reference(Self.cart)
        let faulted = try await Self.reference(Self.cart, plan: plan)
        try await Self.withServer { server, client in
            // When a request is answered, the plan is set, and the same kept-alive connection asks again
            let first = try await Self.exchange(client, Self.cart)
            try server.setFaultPlan(plan)
            let second = try await Self.exchange(client, Self.cart)

            // Then the first is the recorded answer and the second the fault's, each byte for byte
            #expect(first == plain)
            #expect(second == faulted)
            #expect(Self.status(of: second) == "503")
            #expect(server.faultPlan == plan)
            #expect(server.journal.entries.map(\.outcome.kind) == [.matched, .faultInjected])
        }
    }

    @Test func clearedPlan_answersTheNextRequestAsRecorded() async throws {
        // Given a server started with a plan faulting every request
        let plain = try await Self.reference(Self.cart)
        try await Self.withServer(plan: try FaultPlan.parse(specs: "status=502")) { server, client in
            let before = try await Self.exchange(client, Self.cart)

            // When the plan is cleared
            try server.setFaultPlan(nil)
            let after = try await Self.exchange(client, Self.cart)

            // Then the next request gets the recorded answer, and no plan is in force
            #expect(Self.status(of: before) == "502")
            #expect(after == plain)
            #expect(server.faultPlan == nil)
        }
    }

    @Test func planWithAMissingTemplate_isRefusedWithItsSentence_andTheOldPlanStays() async throws {
        // Given a server whose plan answers /cart with 502
        let old = try FaultPlan.parse(specs: "status=502,path=/cart")
        try await Self.withServer(plan: old) { server, client in
            // When a plan naming a template no cassette holds is set
            let bad = try FaultPlan.parse(specs: "service-error=quota")
            let error = #expect(throws: MockServerError.self) { try server.setFaultPlan(bad) }

            // Then it is refused with the sentence the initializer uses, and the old plan answers the next request
            #expect(error?.code == .invalidFaultPlan)
            #expect(
                error?.description
                    == "rule 1 ('service-error=quota'): no cassette served has an error template named 'quota'; the templates there are: maintenance")
            #expect(server.faultPlan == old)
            let next = try await Self.exchange(client, Self.cart)
            #expect(Self.status(of: next) == "502")
        }
    }

    @Test func planRefused_throwsAsTheInitializerDoes() async throws {
        // Given the error a server started with the bad plan throws
        let bad = try FaultPlan.parse(specs: "service-error=quota")
        let atStart = #expect(throws: MockServerError.self) {
            _ = try CassetteServer(cassettes: [Self.shop], configuration: .init(faults: .plan(bad)))
        }
        // When the same plan is set at run time, then the error is the same
        try await Self.withServer { server, _ in
            let atRunTime = #expect(throws: MockServerError.self) { try server.setFaultPlan(bad) }
            #expect(atRunTime == atStart)
            #expect(server.faultPlan == nil)
        }
    }

    @Test func planSetAtRunTime_refusesTheNextConnection_andCoverageSeesEachPlanItMet() async throws {
        try await Self.withServer(plan: try FaultPlan.parse(specs: "status=502,path=/cart")) { server, client in
            // Given a request faulted by the plan the server started with
            _ = try await Self.exchange(client, Self.cart)

            // When a plan refusing connections and answering 503 replaces it
            try server.setFaultPlan(try FaultPlan.parse(specs: "refuse,when=first:1; status=503"))
            let refused = try RawHTTPClient(server.baseURL!)
            let (bytes, ending) = await refused.readToEnd()
            let after = try await Self.exchange(client, Self.cart)

            // Then the next connection is refused, the kept-alive one meets the new plan, and what the fault
            // coverage reads names the rule each met
            #expect(bytes.isEmpty && ending == .closed)
            #expect(Self.status(of: after) == "503")
            #expect(server.refusedConnections.map(\.rule.description) == ["refuse,when=first:1"])
            #expect(FaultCoverage.decisions(in: server.journal.entries).map(\.fault) == ["status=502,path=/cart", "status=503"])
        }
    }

    @Test func replacedCassettes_answerTheNextRequest_andWhatOnlyTheOldHeldIsUnmatched() async throws {
        let emptied = try await Self.reference(Self.cart, cassettes: [Self.emptyCart])
        try await Self.withServer { server, client in
            // Given a server that answered from the shop cassette
            let before = try await Self.exchange(client, Self.cart)

            // When it switches to the empty cart
            try server.replaceCassettes(with: [Self.emptyCart])
            let cart = try await Self.exchange(client, Self.cart)
            let counter = try await Self.exchange(client, Self.counter)

            // Then the new cassette answers byte for byte, and what only the old one held is a 404 near miss
            #expect(before != emptied)
            #expect(cart == emptied)
            #expect(Self.status(of: counter) == "404")
            #expect(server.unmatchedRequests.map(\.target) == ["/counter"])
            #expect(server.journal.entries.map(\.outcome.interaction?.cassette) == ["shop", "empty-cart", nil])
            #expect(server.journal.entries.map(\.outcome.interaction?.cassetteIndex) == [0, 1, nil])
        }
    }

    @Test func replacedCassettes_areWhatVerifyEveryInteractionUsedAsksAbout() async throws {
        try await Self.withServer { server, client in
            // Given the first interaction of the shop cassette used
            _ = try await Self.exchange(client, Self.cart)

            // When the server switches to the empty cart, whose first interaction no request used yet
            try server.replaceCassettes(with: [Self.emptyCart])

            // Then that interaction is unused (the use of the shop's counts for the shop alone), until a request uses it
            let unused = #expect(throws: MockServerError.self) { try server.verifyEveryInteractionUsed() }
            #expect(unused?.description == "1 of 1 recorded interaction was never used:\n  empty-cart interaction 0 (GET /cart)")
            _ = try await Self.exchange(client, Self.cart)
            try server.verifyEveryInteractionUsed()
        }
    }

    @Test func replacedCassettes_keepTheInteractionsAddedInCode_theirSequencesStartedAgain() async throws {
        let flagsRequest = "GET /flags HTTP/1.1\r\nHost: localhost\r\n\r\n"
        try await Self.withServer { server, client in
            // Given an interaction added in code, used once
            server.add(.stub("GET", "/flags", json: ["beta": true]))
            _ = try await Self.exchange(client, flagsRequest)

            // When the cassettes are replaced
            try server.replaceCassettes(with: [Self.emptyCart])

            // Then it is served with the new cassette, unused until asked for again, and still answers first
            let unused = #expect(throws: MockServerError.self) { try server.verifyEveryInteractionUsed() }
            #expect(
                unused?.description
                    == "2 of 2 recorded interactions were never used:\n  empty-cart interaction 0 (GET /cart)\n  in-code interaction 0 (GET /flags)")
            let flags = try await Self.exchange(client, flagsRequest)
            #expect(String(decoding: flags, as: UTF8.self).hasSuffix(#"{"beta":true}"#))
            // (numbered after the shop cassette, then after the two cassettes served before the switch)
            #expect(server.journal.entries.map(\.outcome.interaction?.cassette) == [ReplayEngine.inCodeCassetteName, ReplayEngine.inCodeCassetteName])
            #expect(server.journal.entries.map(\.outcome.interaction?.cassetteIndex) == [1, 3])
        }
    }

    @Test func switchRefused_whenThePlansTemplateIsMissing_keepsCassettesAndPlan() async throws {
        // Given a server whose plan answers /cart with the shop's template
        let plan = try FaultPlan.parse(specs: "service-error=maintenance,path=/cart")
        try await Self.withServer(plan: plan) { server, client in
            // When it is told to switch to cassettes without that template
            let error = #expect(throws: MockServerError.self) { try server.replaceCassettes(with: [Self.emptyCart]) }

            // Then the switch is refused with one sentence, and the old cassettes and plan still answer
            #expect(error?.code == .invalidFaultPlan)
            #expect(
                error?.description
                    == "the cassettes were not replaced, as the fault plan in force does not fit them: rule 1 ('service-error=maintenance,path=/cart'): "
                    + "no cassette served has an error template named 'maintenance'; the cassettes served have no error templates")
            #expect(server.faultPlan == plan)
            let cart = try await Self.text(client, Self.cart)
            let counter = try await Self.text(client, Self.counter)
            #expect(cart.hasPrefix("HTTP/1.1 503") && cart.hasSuffix(#"{"error":"maintenance"}"#))
            #expect(counter.hasSuffix(#"{"n":1}"#))
        }
    }

    @Test func resetSequences_replaysASequenceFromItsFirstAnswer_andKeepsTheJournal() async throws {
        try await Self.withServer { server, client in
            // Given a sequence of two recorded answers, played through
            var bodies: [String] = []
            for _ in 0..<2 { bodies.append(try await Self.text(client, Self.counter)) }

            // When the sequences are reset
            server.resetSequences()
            bodies.append(try await Self.text(client, Self.counter))

            // Then the next request gets the first answer again, and the journal still holds every request
            #expect(bodies.map { $0.hasSuffix(#"{"n":1}"#) } == [true, false, true])
            #expect(bodies[1].hasSuffix(#"{"n":2}"#))
            #expect(server.journal.recordedCount == 3)
        }
    }

    @Test(arguments: [CassetteServer.Mode.record, .replayOrRecord, .passThrough])
    func forwardingModes_refuseAPlanAndASwitch_withOneSentence(mode: CassetteServer.Mode) async throws {
        // Given a server in a forwarding mode
        let options = RecordingOptions(upstream: try Upstream("http://127.0.0.1:9"))
        let server = try CassetteServer(cassettes: [Self.shop], configuration: .init(faults: .none, mode: mode, recording: options))

        // When a plan is set, cleared, or the cassettes are switched
        let plan = try FaultPlan.parse(specs: "status=503")
        let set = #expect(throws: MockServerError.self) { try server.setFaultPlan(plan) }
        let cleared = #expect(throws: MockServerError.self) { try server.setFaultPlan(nil) }
        let switched = #expect(throws: MockServerError.self) { try server.replaceCassettes(with: [Self.emptyCart]) }
        await server.stop()

        // Then each throws one sentence, and no plan is in force
        #expect(
            set?.description
                == "the server is in \(mode) mode, which forwards requests to the upstream, where faults never apply: only a server in "
                + "replay mode takes a fault plan")
        #expect(cleared == set)
        #expect(switched?.code == .invalidConfiguration)
        #expect(
            switched?.description
                == "the server is in \(mode) mode, which forwards requests to the upstream: only a server in replay mode "
                + "can replace its cassettes")
        #expect(server.faultPlan == nil)
    }
}

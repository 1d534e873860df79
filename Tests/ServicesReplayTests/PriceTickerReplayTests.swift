import ExampleServices
import Foundation
import MockServer
import ServiceKit
import ServiceReplayTestSupport
import ServiceReplayTesting
import Testing

/// PriceTickerService against the hand-written conversations of `ticker/prices`, through `withReplay`: on Linux over
/// ``LoopbackWebSocketTransport``, elsewhere over URLSession's. Pinned to no faults, because CI reruns this target
/// under random plans.
@Suite(.ownEnvironment) struct PriceTickerReplayTests {
    static let subscription = PriceTickerService.Outgoing.subscribe(["BTC-USD", "ETH-USD"])

    /// Connects to `market`, sends `subscription`, and reads the messages until they end; the ticks read and the
    /// error they ended with.
    private func follow(
        _ market: String, sending subscription: PriceTickerService.Outgoing = subscription, on client: WebServiceClient
    ) async throws -> ([PriceTick], WebServiceError?) {
        let ticker = try await client.connect(to: PriceTickerService(market: market))
        try await ticker.send(subscription)
        var ticks: [PriceTick] = []
        do {
            for try await tick in ticker.messages { ticks.append(tick) }
            return (ticks, nil)
        } catch {
            return (ticks, error)
        }
    }

    @Test func crypto_ticksArriveTypedAndInOrder_theHeartbeatSkipped_thenTheCloseEndsThemNormally() async throws {
        try await withReplay("ticker/prices", configuration: .init(faults: .none)) { replay in
            // WHEN the app subscribes to two symbols of the crypto market
            let (ticks, error) = try await follow("crypto", on: replay.client)
            // THEN the recorded prices arrive typed and in order, the heartbeat skipped, and the 1000 close ends them
            #expect(error == nil)
            #expect(ticks.map(\.symbol) == ["BTC-USD", "ETH-USD", "BTC-USD"])
            #expect(ticks.map(\.price) == [97012.5, 3621.25, 97020])
            #expect(ticks.first?.time == ISO8601DateFormatter().date(from: "2026-12-01T09:00:00Z"))
            #expect(replay.server.unmatchedRequests.isEmpty)
        }
    }

    @Test func subscription_reachesTheServer_asTheBytesTheClientsEncoderMakes() async throws {
        try await withReplay("ticker/prices", configuration: .init(faults: .none)) { replay in
            // WHEN the app subscribes, and reads on until the server's close (so the server has seen everything)
            _ = try await follow("crypto", on: replay.client)
            // THEN the server received exactly the client's encoding (sorted keys), and it matched the recording:
            // the conversation went on to its recorded close
            let entry = try #require(replay.server.journal.entries.first)
            #expect(entry.request.target == "/v1/prices?market=crypto")
            let transcript = try #require(entry.outcome.webSocket).snapshot
            let sent = try #require(transcript.messages.first)
            #expect(sent.from == .client)
            #expect(sent.content.data == Data(#"{"action":"subscribe","symbols":["BTC-USD","ETH-USD"]}"#.utf8))
            #expect(sent.content.data == (try replay.client.configuration.jsonEncoder.encode(Self.subscription)))
            #expect(transcript.messages.map(\.from) == [.client, .server, .server, .server, .server])
            guard case .closed(by: .server, code: 1000, reason: "session over", _)? = transcript.ending else {
                Issue.record("expected the recorded close 1000, found \(String(describing: transcript.ending))")
                return
            }
        }
    }

    @Test func closedMarket_closesWith4003_whichIsAServiceLevelError() async throws {
        try await withReplay("ticker/prices", configuration: .init(faults: .none)) { replay in
            // WHEN the app subscribes to a market the recording has closed
            let (ticks, error) = try await follow("nyse", sending: .subscribe(["AAPL"]), on: replay.client)
            // THEN the 4003 close is the service-level error payload, its frame underneath
            #expect(ticks.isEmpty)
            #expect(error?.reason == .service(.errorPayload(code: "4003", message: "market closed")))
            #expect(error?.underlyingError as? WebSocketCloseFrame == WebSocketCloseFrame(code: 4003, reason: "market closed"))
        }
    }

    @Test func unrecordedSubscription_isClosedWith1008_whichIsConnectionLost_andAnUnmatchedRequest() async throws {
        try await withReplay("ticker/prices", configuration: .init(faults: .none)) { replay in
            // WHEN the app sends a message the recording does not hold
            let (ticks, error) = try await follow("crypto", sending: .subscribe(["DOGE-USD"]), on: replay.client)
            // THEN the server closes with 1008 (policy violation), which ServiceKit reads as the connection lost
            #expect(ticks.isEmpty)
            #expect(error?.reason == .network(.connectionLost))
            let frame = try #require(error?.underlyingError as? WebSocketCloseFrame)
            #expect(frame.code == .policyViolation)
            #expect(frame.reason.contains(#"recorded "BTC-USD", received "DOGE-USD""#))
            // AND the server reports the near miss
            #expect(replay.server.unmatchedRequests.count == 1)
        }
    }

    @Test func unrecordedMarket_isRefusedUpgrade_badResponseWithTheStatus() async throws {
        try await withReplay("ticker/prices", configuration: .init(faults: .none)) { replay in
            // WHEN the app connects to a market no conversation was recorded for
            let error = await #expect(throws: WebServiceError.self) {
                _ = try await replay.client.connect(to: PriceTickerService(market: "lse"))
            }
            // THEN the server's refusal is network-level, with its status and the refusal underneath
            #expect(error?.reason == .network(.badResponse))
            let refusal = try #require(error?.underlyingError as? WebSocketUpgradeRefused)
            #expect(error?.statusCode == refusal.statusCode)
            #expect(refusal.statusCode != 101)
        }
    }
}

import Foundation
@testable import MockServer
import Testing

/// The engine keeps interactions in the form it replays, not the decoded cassettes; what it gives back must
/// still be exactly what it was given.
@Suite struct PreparedCassetteTests {
    /// One interaction of every shape the archive distinguishes.
    static let cassette = Cassette(
        name: "shapes", upstream: "https://api.example", origin: .handWritten, note: "every body and header form",
        recordedAt: Date(timeIntervalSince1970: 1_795_255_200),
        matching: MatchRules(ignoredQueryParameters: ["_"], headers: ["Accept"], afterLast: .cycle),
        errorTemplates: ["rate_limit": RecordedResponse(status: 429, headers: ["Retry-After": "1"], body: .json(["message": "slow down"]))],
        interactions: [
            Interaction(
                request: RecordedRequest(method: "GET", target: "/json?since=0", headers: ["Accept": "application/json"]),
                response: RecordedResponse(
                    status: 200, headers: ["Content-Type": "application/json"],
                    body: .json(["n": 1.50, "text": "a\u{1}\"b/é", "list": [.null, true, 1e+20]])),
                recordedAt: Date(timeIntervalSince1970: 1_795_255_201), durationMs: 87),
            Interaction(
                request: RecordedRequest(
                    method: "POST", target: "/form", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                    body: .text("a=1&b=<redacted>")),
                response: RecordedResponse(status: 201, headers: ["Content-Type": "text/plain", "Content-Length": "999"], body: .text("created"))),
            Interaction(
                request: RecordedRequest(method: "GET", target: "/gzip"),
                response: RecordedResponse(
                    status: 200,
                    headers: HTTPHeaders(pairs: [
                        ("Content-Encoding", "gzip"), ("Content-Type", "image/png"),
                        ("Transfer-Encoding", "chunked"),
                    ]),
                    body: .binary(Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF])))),
            Interaction(
                request: RecordedRequest(method: "HEAD", target: "/head"),
                response: RecordedResponse(status: 200, headers: ["Content-Length": "1234"])),
            Interaction(request: RecordedRequest(method: "GET", target: "/empty-text"), response: RecordedResponse(status: 204, body: .text(""))),
            Interaction(request: RecordedRequest(method: "GET", target: "/empty-binary"), response: RecordedResponse(status: 200, body: .binary(Data()))),
            Interaction(
                request: RecordedRequest(method: "GET", target: "/down"), failure: TransportFailure(kind: .timeout, message: "timed out"),
                durationMs: 30_000),
        ])

    @Test func engineCassettes_areTheCassettesGiven() {
        // GIVEN an engine over a cassette with every body kind, header form and outcome
        let engine = ReplayEngine(cassettes: [Self.cassette])
        // WHEN the cassettes are asked for THEN they are rebuilt exactly, in-code additions included
        #expect(engine.preparedCassettes.map(\.cassette) == [Self.cassette])
        let stub = Interaction.stub("GET", "/added", status: 418, json: ["teapot": true])
        engine.add(stub)
        #expect(engine.preparedCassettes.map(\.cassette).count == 2)
        #expect(engine.preparedCassettes.map(\.cassette)[0] == Self.cassette)
        #expect(engine.preparedCassettes.map(\.cassette)[1].interactions == [stub])
    }

    @Test func replies_areTheRecordedReplayResponses() {
        // GIVEN the engine over the same cassette
        let engine = ReplayEngine(cassettes: [Self.cassette])
        for (position, interaction) in Self.cassette.interactions.enumerated() {
            // WHEN each interaction's own request is sent
            let request = HTTPRequest(
                method: interaction.request.method, target: interaction.request.target,
                headers: interaction.request.headers, body: interaction.request.body.data)
            let decision = engine.answer(request)
            // THEN it answers with that interaction's replay response, or replays its failure
            #expect(decision.interaction?.index == position)
            switch interaction.outcome {
            case .response(let recorded): #expect(decision.response == recorded.replayResponse)
            case .failure(let failure):
                // The engine keeps the recorded failure and answers with the reply that reproduces it.
                guard case .failure(let replayed) = engine.preparedCassettes[0].replies[position] else {
                    Issue.record("expected the recorded failure")
                    continue
                }
                #expect(replayed == failure)
                #expect("\(decision.reply.action)" == "\(failure.reply.action)")
            case .webSocket:
                Issue.record("the fixture holds no WebSocket conversation")
            }
        }
    }

    @Test func equalHeaders_areKeptOnce() throws {
        // GIVEN a decoded cassette whose interactions repeat header values longer than Swift keeps inline
        let written = Cassette(
            name: "repeats",
            interactions: (0..<3).map { index in
                Interaction(
                    request: RecordedRequest(method: "GET", target: "/users/\(index)", headers: ["Accept": "application/vnd.github+json"]),
                    response: RecordedResponse(
                        status: 200, headers: ["Content-Type": "application/json; charset=utf-8"],
                        body: .json(["id": .number(JSONNumber(index))])))
            })
        let decoded = try Cassette(jsonData: written.encoded(), source: "repeats.json")
        let prepared = PreparedCassette(LoadedCassette(decoded), ordinal: 0, number: 0, rank: 0, options: ReplayOptions())
        // WHEN prepared THEN equal values share one storage, and requests sending the same headers one list
        let contentTypes = prepared.replies.compactMap { reply -> String? in
            guard case .response(let response) = reply else { return nil }
            return response.headers["Content-Type"]
        }
        #expect(contentTypes.count == 3 && Set(contentTypes).count == 1)
        #expect(zip(contentTypes, contentTypes.dropFirst()).allSatisfy { Self.sharesStorage($0, $1) })
        let accepts = prepared.requests.compactMap { $0.headers["Accept"] }
        #expect(accepts.count == 3 && zip(accepts, accepts.dropFirst()).allSatisfy { Self.sharesStorage($0, $1) })
        #expect(prepared.requests.map(\.headers) == decoded.interactions.map(\.request.headers))
    }

    /// Whether two strings use the same heap buffer (their UTF-8 bytes start at the same address).
    private static func sharesStorage(_ left: String, _ right: String) -> Bool {
        var left = left
        var right = right
        return left.withUTF8 { leftBytes in right.withUTF8 { $0.baseAddress == leftBytes.baseAddress } }
    }
}

import Foundation
import ServiceReplayShared

extension MockServerError.Code {
    /// Under `MOCKSERVER_RECORD=drift`, the live API answered a test's request in a way that breaks what its
    /// cassette says (a field removed, a type changed...); the message names each change at its JSON path.
    public static let apiDrift = MockServerError.Code(rawValue: "apiDrift")
}

/// The `swift test` drift mode (``RecordMode/drift``): the test runs against the live API (pass-through,
/// nothing recorded, the cassette never changed); each exchange is kept, and once the test is over each live
/// answer is compared (see ``DriftComparison``) with the answer the cassettes would have replayed for that
/// request, found by replaying them on a server of their own, so that matching and sequencing are replay's.
package final class DriftCheck: Sendable {
    /// The cassettes the test would have replayed.
    private let cassettes: [Cassette]
    /// The test's match rules, so that the same interaction is found as replay would find it.
    private let matching: MatchRules
    /// Each forwarded request (as recorded: secrets redacted) and what the upstream did, in order.
    private let exchanges = Lock<[(request: RecordedRequest, live: Interaction.Outcome)]>([])

    /// A check of the live answers against `cassettes`, matched under `matching`.
    package init(cassettes: [Cassette], matching: MatchRules) {
        self.cassettes = cassettes
        self.matching = matching
    }

    /// Keeps `exchange` for the comparison; set as the recording's ``RecordingOptions/onExchange``.
    package func keep(_ exchange: ForwardedExchange) {
        exchanges.withLock { $0.append((exchange.interaction.request, exchange.interaction.outcome)) }
    }

    /// Compares every kept exchange with what the cassettes replay for its request. Returns the warnings
    /// (additive changes, and requests no cassette answers), each worded as `recorder drift` words it.
    /// - Throws: ``MockServerError`` (`apiDrift`) naming every breaking change, request by request.
    package func verify() async throws -> [String] {
        let kept = exchanges.withLock { $0 }
        guard !kept.isEmpty else { return [] }
        let server = try CassetteServer(
            cassettes: cassettes, configuration: CassetteServer.Configuration(matching: matching, faults: .none, streamTiming: .instant))
        let base = try await server.start()
        // Every change, additive ones too: beside a removed field, an added one may tell that it was renamed.
        var lines: [String] = []
        var isBreaking = false
        var warnings: [String] = []
        do {
            let probe = DriftProbe(upstream: try Upstream(base), longestWait: .zero)
            for exchange in kept {
                let title = exchange.request.titleWithOperations
                guard case .success(let replayed) = await probe.send(exchange.request.httpRequest) else {
                    warnings.append("drift: \(title): the cassettes' replay did not answer, so nothing was compared")
                    continue
                }
                guard !replayed.headers.contains(NearMiss.unmatchedHeader) else {
                    warnings.append("drift: \(title): no interaction of the cassettes answers this request, so nothing was compared")
                    continue
                }
                let changes: [DriftChange]
                switch exchange.live {
                case .failure(let failure):
                    changes = [.unreachable(failure.driftReason)]
                case .webSocket:
                    warnings.append("drift: \(title): a WebSocket conversation is not compared; only its upgrade is matched")
                    continue
                case .response(let answer):
                    let recorded = RecordedResponse(
                        status: replayed.status, headers: replayed.headers,
                        body: RecordedBody(replayed.body, contentType: replayed.headers["Content-Type"]))
                    changes = DriftComparison.changes(
                        recorded: recorded, live: HTTPResponse(status: answer.status, headers: answer.headers, body: answer.body.data),
                        graphQL: exchange.request.isGraphQL)
                }
                if changes.contains(where: { $0.severity == .breaking }) { isBreaking = true }
                lines += changes.map { "\(title): \($0.line)" }
            }
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
        guard !isBreaking else {
            throw MockServerError(
                .apiDrift,
                "the live API no longer answers as the cassette says (\(RecordVariables.record)=drift):\n"
                    + (lines + warnings).map { "  " + $0 }.joined(separator: "\n"))
        }
        return lines.map { "drift: " + $0 } + warnings
    }
}

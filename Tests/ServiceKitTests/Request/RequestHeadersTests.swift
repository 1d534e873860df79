import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import ServiceKit
import ServiceKitTesting
import ServiceReplayShared
import Testing

@Suite struct RequestHeadersTests {
    @Test func defaults_acceptJSONAndNameTheLibrary() async throws {
        let transport = ScriptedTransport(.json([:]))
        _ = try await makeClient(transport).send(EchoService())
        let request = try #require(transport.requests.first)
        #expect(request.value(forHTTPHeaderField: "Accept") == "application/json")
        #expect(request.value(forHTTPHeaderField: "User-Agent") == "ServiceKit/\(ServiceKit.version)")
        #expect(request.timeoutInterval == 12)
    }

    @Test func clientHeaders_replaceDefaults_andServiceConfigureWins() async throws {
        // Given a client header and a service that sets one of its own
        let transport = ScriptedTransport(.json([:]))
        let client = makeClient(transport, headers: ["Accept": "application/vnd.github+json", "X-Api-Key": "k"])
        let service = EchoService(extraHeader: ("X-Api-Key", "service"))
        // When it is sent
        _ = try await client.send(service)
        let request = try #require(transport.requests.first)
        // Then the client's header replaces the default and the service's adjustment is last
        #expect(request.value(forHTTPHeaderField: "Accept") == "application/vnd.github+json")
        #expect(request.value(forHTTPHeaderField: "X-Api-Key") == "service")
    }

    @Test func commonParameters_areAskedPerCallAndMerged() async throws {
        // Given a token provider whose token changes between calls
        let transport = ScriptedTransport(.json([:]))
        let counter = Counter()
        let client = makeClient(transport, commonParameters: { ["token": "t\(counter.next())"] })
        // When two calls are made
        _ = try await client.send(EchoService(parameters: ["user_id": "42"]))
        _ = try await client.send(EchoService(parameters: ["user_id": "42"]))
        // Then each carries the token current at its time, after the service's own parameters
        #expect(transport.requests.map { $0.url?.query } == ["user_id=42&token=t1", "user_id=42&token=t2"])
    }
}

/// A thread-safe counter for provider closures.
final class Counter: Sendable {
    private let value = Lock(0)

    func next() -> Int {
        value.withLock { value in
            value += 1
            return value
        }
    }
}

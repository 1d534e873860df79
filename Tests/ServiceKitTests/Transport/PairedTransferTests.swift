import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceKit
import ServiceReplayShared
import Testing

/// A client on a `VirtualClock` that a server shares: each request names its transfer, and the client's timeout
/// is the clock's. The server here is a transport that paces its answer on the clock, as MockServer's wire does.
@Suite(.timeLimit(.minutes(1))) struct PairedTransferTests {
    /// What the pacing "server" does with a transfer.
    enum Behaviour: Sendable {
        /// Answers `{}` after this many nanoseconds on the clock.
        case latency(UInt64)
        /// Never answers.
        case stall
        /// Sends the head and `events`, then nothing more.
        case streamThenStall(String)
    }

    /// A transport that takes each transfer up on `clock` and behaves as told; it records the header it saw.
    struct PacingServer: HTTPTransport {
        let clock: VirtualClock
        let behaviour: Behaviour
        let headers = ServiceReplayShared.Lock<[String?]>([])
        /// One element each time a stalled send is cancelled.
        let cancelledStalls = AsyncStream<Void>.makeStream()

        func pacing(for request: URLRequest) throws -> VirtualPacing {
            let header = request.value(forHTTPHeaderField: VirtualClock.transferHeader)
            headers.withLock { $0.append(header) }
            guard let header, let pacing = clock.pacing(for: header) else { throw URLError(.cannotConnectToHost) }
            return pacing
        }

        func send(_ request: URLRequest, uploadProgress: UploadProgressHandler?) async throws -> TransportResponse {
            let pacing = try pacing(for: request)
            switch behaviour {
            case .latency(let nanoseconds):
                await withCheckedContinuation { continuation in pacing.park(until: pacing.now + nanoseconds) { continuation.resume() } }
                return TransportResponse(statusCode: 200, headers: ["Content-Type": "application/json"], body: Data("{}".utf8))
            case .stall, .streamThenStall:
                pacing.stall()
                // Until the client gives up (its timeout cancels this task).
                do { try await Task.sleep(for: .seconds(3600)) } catch { cancelledStalls.continuation.yield() }
                throw CancellationError()
            }
        }

        func stream(_ request: URLRequest) async throws -> StreamedResponse {
            let pacing = try pacing(for: request)
            guard case .streamThenStall(let events) = behaviour else { throw URLError(.badServerResponse) }
            let bytes = Data(events.utf8)
            let (body, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
            continuation.yield(bytes)
            pacing.wrote(bodyBytes: bytes.count)
            pacing.stall()
            // The body stays open until the client drops it.
            continuation.onTermination = { _ in }
            return StreamedResponse(statusCode: 200, headers: ["Content-Type": "text/event-stream"], body: body, url: request.url)
        }
    }

    /// A client with a 1 s timeout on `clock`, through `server`; a server on the clock runs unless `attached` is false.
    static func client(_ server: PacingServer, attached: Bool = true) -> WebServiceClient {
        if attached { server.clock.attachServer() }
        return WebServiceClient(baseURL: URL(string: "http://127.0.0.1:9")!, configuration: .init(timeout: 1, clock: server.clock), transport: server)
    }

    @Test(arguments: [(800, true), (1000, true), (1200, false)])
    func latency_answersWithinTheTimeout_elseTimesOutAtIt_onTheClock(milliseconds: Int, answers: Bool) async throws {
        let server = PacingServer(clock: VirtualClock(), behaviour: .latency(UInt64(milliseconds) * 1_000_000))
        let client = Self.client(server)
        do throws(WebServiceError) {
            _ = try await client.send(EchoService())
            #expect(answers)
            #expect(server.clock.elapsed == .milliseconds(milliseconds))
        } catch {
            #expect(!answers)
            #expect(error.reason == .network(.timedOut))
            #expect(server.clock.elapsed == .seconds(1))
        }
    }

    @Test func stall_timesOutExactlyAtTheTimeout() async throws {
        let server = PacingServer(clock: VirtualClock(), behaviour: .stall)
        let error = await #expect(throws: WebServiceError.self) { try await Self.client(server).send(EchoService()) }
        #expect(error?.reason == .network(.timedOut))
        #expect(server.clock.elapsed == .seconds(1))
    }

    @Test func stall_timedOut_cancelsTheTransportsWork() async throws {
        // GIVEN a stall, WHEN the client's timeout fires on the clock
        let server = PacingServer(clock: VirtualClock(), behaviour: .stall)
        await #expect(throws: WebServiceError.self) { try await Self.client(server).send(EchoService()) }
        // THEN the transport's send is cancelled, not left running until its own (real) timeout
        var cancellations = server.cancelledStalls.stream.makeAsyncIterator()
        #expect(await cancellations.next() != nil)
    }

    @Test func stream_deliversTheEventsSent_thenTimesOutOneTimeoutLater() async throws {
        let server = PacingServer(clock: VirtualClock(), behaviour: .streamThenStall("data: one\n\ndata: two\n\n"))
        var events: [String] = []
        do throws(WebServiceError) {
            for try await event in Self.client(server).events(of: TextStreamService()) { events.append(event) }
            Issue.record("the stream ended without its timeout")
        } catch {
            #expect(error.reason == .network(.timedOut))
        }
        #expect(events == ["one", "two"])
        #expect(server.clock.elapsed == .seconds(1))
    }

    @Test func clockNoServerRuns_pairsNothing() async throws {
        // GIVEN a virtual clock no server runs on, WHEN the client sends
        let server = PacingServer(clock: VirtualClock(), behaviour: .latency(0))
        _ = try? await Self.client(server, attached: false).send(EchoService())
        // THEN the request names no transfer: the clock is only the client's, for retries
        #expect(server.headers.withLock { $0 } == [nil])
    }
}

import Foundation
import ServiceReplayShared
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The events of one ``StreamingService`` call, delivered as the server sends them:
///
/// ```swift
/// for try await delta in client.events(of: ChatCompletionsService(model: "gpt-4o-mini", messages: [.user("Hi")])) {
///     print(delta.content ?? "", terminator: "")
/// }
/// ```
///
/// Nothing is sent until iteration starts; each iterator sends its own request, and calls are never
/// retried (a retry could repeat events already delivered). The sequence ends (returns `nil`) at the end
/// of the response or at the service's end-of-stream marker. Every failure is thrown as a
/// ``WebServiceError`` after the events already delivered, and ends the sequence:
/// - network-level before the stream starts, as for ``WebServiceClient/send(_:uploadProgress:)``;
/// - `.network(.connectionLost)` when the stream breaks after it started (or ends without a marker the
///   service requires), `.network(.timedOut)` when it stalls past the client's timeout;
/// - service-level for an error response, a 2xx that is not `text/event-stream` (`.wrongContentType`), an
///   error event, or an event the service cannot map;
/// - `.network(.cancelled)` when the iterating task is cancelled, which also closes the connection.
public struct EventStream<Service: StreamingService>: AsyncSequence, Sendable {
    /// One mapped event.
    public typealias Element = Service.Event
    /// Only ``WebServiceError`` is thrown.
    public typealias Failure = WebServiceError

    let client: WebServiceClient
    let service: Service

    /// An iterator that sends the request when first asked for an event.
    public func makeAsyncIterator() -> Iterator {
        Iterator(client: client, service: service)
    }

    /// Reads the stream on demand.
    public struct Iterator: AsyncIteratorProtocol {
        /// Only ``WebServiceError`` is thrown.
        public typealias Failure = WebServiceError

        /// A response that is not a stream is read whole to find its error, up to this many bytes.
        static var errorBodyLimit: Int { 65_536 }

        let client: WebServiceClient
        let service: Service
        private var started = false
        private var body: AsyncThrowingStream<Data, any Error>.Iterator?
        private var statusCode: Int?
        private var parser = ServerSentEventParser()
        private var parsed: [ServerSentEvent] = []
        private var nextParsed = 0

        init(client: WebServiceClient, service: Service) {
            self.client = client
            self.service = service
        }

        /// The next event, or `nil` at the end of the stream.
        ///
        /// - Throws: ``WebServiceError`` as ``EventStream`` describes; after a throw the sequence is over.
        public mutating func next() async throws(WebServiceError) -> Service.Event? {
            if !started {
                started = true
                try await start()
            }
            while true {
                while nextParsed < parsed.count {
                    let message = parsed[nextParsed]
                    nextParsed += 1
                    if let event = try deliver(message) {
                        return event
                    }
                }
                guard body != nil else { return nil }
                let chunk: Data?
                do {
                    chunk = try await body?.next()
                } catch {
                    let failure = brokenStreamFailure(error)
                    end()
                    throw .network(failure, underlyingError: error)
                }
                guard let chunk else {
                    body = nil
                    if Task.isCancelled { throw WebServiceError.network(.cancelled) }
                    if service.requiresEndOfStream { throw WebServiceError.network(.connectionLost) }
                    return nil
                }
                parsed = parser.feed(chunk).map(ServerSentEvent.init)
                nextParsed = 0
            }
        }

        /// The mapped event for `message`, `nil` to skip it (or at the end marker, which also ends the body).
        private mutating func deliver(_ message: ServerSentEvent) throws(WebServiceError) -> Service.Event? {
            if let failure = service.serviceError(in: message) {
                end()
                throw .service(failure, statusCode: statusCode)
            }
            if service.isEndOfStream(message) {
                end()
                return nil
            }
            do {
                return try service.event(from: message)
            } catch let error as WebServiceError {
                end()
                throw error
            } catch {
                end()
                throw .service(.undecodableBody, underlyingError: error, statusCode: statusCode)
            }
        }

        /// Ends the sequence: drops the body, which stops the transfer and closes the connection.
        private mutating func end() {
            body = nil
            parsed = []
            nextParsed = 0
        }

        /// Sends the request and keeps the body when the answer is a stream; throws its error otherwise.
        private mutating func start() async throws(WebServiceError) {
            guard !Task.isCancelled else { throw .network(.cancelled) }
            var parameters = service.parameters
            parameters.merge(defaults: await client.configuration.commonParameters())
            let request = try RequestBuilder(client: client).request(for: service, parameters: parameters)
            var response: StreamedResponse
            do {
                if let paired = PairedTransfer(request, clock: client.configuration.clock) {
                    let transport = client.transport
                    do {
                        response = try await paired.transfer.run { try await transport.stream(paired.request) }
                    } catch {
                        paired.transfer.end()
                        throw error
                    }
                    response.body = paired.transfer.watching(response.body)
                } else {
                    response = try await client.transport.stream(request)
                }
            } catch {
                let failure = Task.isCancelled ? .cancelled : service.networkError(for: error)
                throw .network(failure, underlyingError: error)
            }
            statusCode = response.statusCode
            let contentType = response.headers["Content-Type"]
            let isEventStream = contentType.map(Self.isEventStream) ?? true
            if (200..<300).contains(response.statusCode) && isEventStream {
                body = response.body.makeAsyncIterator()
                return
            }
            let reply = RawResponse(
                statusCode: response.statusCode, headers: response.headers,
                body: try await Self.collect(response.body, limit: Self.errorBodyLimit),
                url: response.url ?? request.url, receivedAt: client.configuration.clock.now)
            if let failure = service.serviceError(in: reply) {
                throw .service(failure, statusCode: reply.statusCode)
            }
            guard reply.isSuccess else {
                throw .service(.httpStatus(reply.statusCode, message: reply.serverMessage), statusCode: reply.statusCode)
            }
            throw .service(.wrongContentType(reply.contentType ?? ""), statusCode: reply.statusCode)
        }

        private static func isEventStream(_ contentType: String) -> Bool {
            let mediaType = contentType.split(separator: ";", maxSplits: 1).first ?? ""
            return mediaType.trimmingCharacters(in: .whitespaces).lowercased() == "text/event-stream"
        }

        /// The first `limit` bytes of `body`; a transfer that breaks while being read is `connectionLost`.
        private static func collect(_ body: AsyncThrowingStream<Data, any Error>, limit: Int) async throws(WebServiceError) -> Data {
            var collected = Data()
            do {
                for try await chunk in body {
                    collected.append(chunk.prefix(limit - collected.count))
                    if collected.count >= limit { break }
                }
            } catch {
                throw .network(Task.isCancelled ? .cancelled : .connectionLost, underlyingError: error)
            }
            return collected
        }

        /// A failure once the stream started: cancelled and timed out keep their names; anything else means
        /// the stream broke.
        private func brokenStreamFailure(_ error: any Error) -> WebServiceError.Network {
            if Task.isCancelled { return .cancelled }
            switch service.networkError(for: error) {
            case .cancelled: return .cancelled
            case .timedOut: return .timedOut
            default: return .connectionLost
            }
        }
    }
}

extension WebServiceClient {
    /// The events of `service`, mapped by the service as they arrive. Nothing is sent until iteration
    /// starts; see ``EventStream`` for how the sequence ends and what it throws. Uses the client's base URL,
    /// headers, common parameters and timeout (as the longest wait for the next bytes); never retries.
    public func events<Service: StreamingService>(of service: Service) -> EventStream<Service> {
        EventStream(client: self, service: service)
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension WebServiceClient {
    /// A successful call: the mapped response and the response it came from (pagination reads both).
    struct MappedResponse<Response: Sendable>: Sendable {
        let response: Response
        let reply: RawResponse
    }

    /// One call, start to finish: build the request once, then attempt, and retry while the policy allows.
    func perform<Service: WebService>(
        _ service: Service, uploadProgress: UploadProgressHandler?
    )
        async throws(WebServiceError) -> MappedResponse<Service.Response>
    {
        guard !Task.isCancelled else { throw .network(.cancelled) }
        var parameters = service.parameters
        parameters.merge(defaults: await configuration.commonParameters())
        let request = try RequestBuilder(client: self).request(for: service, parameters: parameters)
        var attempt = 1
        while true {
            let failure: WebServiceError
            let retryAfter: TimeInterval?
            switch await attemptOnce(request, service: service, uploadProgress: uploadProgress) {
            case .success(let outcome):
                return outcome
            case .failure(let error, let serverDelay):
                (failure, retryAfter) = (error, serverDelay)
            }
            guard
                let delay = configuration.retryPolicy?.delay(
                    after: attempt, failedWith: failure,
                    method: service.method, retryAfter: retryAfter)
            else {
                throw failure
            }
            do {
                try await configuration.clock.sleep(for: delay)
            } catch {
                throw .network(.cancelled, underlyingError: error)
            }
            attempt += 1
        }
    }

    private enum Attempt<Response: Sendable> {
        case success(MappedResponse<Response>)
        /// The error, and the wait the server asked for (`Retry-After`, or a rate limit's delay).
        case failure(WebServiceError, retryAfter: TimeInterval?)
    }

    private func attemptOnce<Service: WebService>(
        _ request: URLRequest, service: Service,
        uploadProgress: UploadProgressHandler?
    ) async -> Attempt<Service.Response> {
        let received: TransportResponse
        do {
            if let paired = PairedTransfer(request, clock: configuration.clock) {
                defer { paired.transfer.end() }
                let transport = transport
                received = try await paired.transfer.run { try await transport.send(paired.request, uploadProgress: uploadProgress) }
            } else {
                received = try await transport.send(request, uploadProgress: uploadProgress)
            }
        } catch {
            let failure = Task.isCancelled ? .cancelled : service.networkError(for: error)
            return .failure(.network(failure, underlyingError: error), retryAfter: nil)
        }
        // A response that raced a cancellation is dropped: a cancelled call always ends as cancelled.
        guard !Task.isCancelled else {
            return .failure(.network(.cancelled), retryAfter: nil)
        }
        let reply = RawResponse(
            statusCode: received.statusCode, headers: received.headers, body: received.body,
            url: received.url ?? request.url, receivedAt: configuration.clock.now)
        switch service.interpret(reply) {
        case .success(let response):
            return .success(MappedResponse(response: response, reply: reply))
        case .failure(let error):
            var retryAfter = reply.retryAfter
            if retryAfter == nil, case .service(.rateLimited(let delay)) = error.reason {
                retryAfter = delay
            }
            return .failure(error, retryAfter: retryAfter)
        }
    }
}

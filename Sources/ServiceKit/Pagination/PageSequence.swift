import Foundation

/// The pages of a ``PaginatedService``, fetched one at a time as they are iterated:
///
/// ```swift
/// for try await page in client.pages(of: GitHubUsersService(perPage: 30), maxPages: 5) { ... }
/// ```
///
/// The sequence ends (returns `nil`) when the service says there is no next page, after `maxPages` pages,
/// or when the iterating task is cancelled: cancellation ends it cleanly rather than as an error. Any
/// other failure is thrown as a ``WebServiceError`` and ends the sequence.
public struct PageSequence<Service: PaginatedService>: AsyncSequence, Sendable {
    /// One page's response.
    public typealias Element = Service.Response
    /// Only ``WebServiceError`` is thrown.
    public typealias Failure = WebServiceError

    let client: WebServiceClient
    let first: Service
    let maxPages: Int

    /// An iterator starting at the first page.
    public func makeAsyncIterator() -> Iterator {
        Iterator(client: client, next: first, remaining: maxPages)
    }

    /// Fetches pages on demand.
    public struct Iterator: AsyncIteratorProtocol {
        /// Only ``WebServiceError`` is thrown.
        public typealias Failure = WebServiceError

        let client: WebServiceClient
        var next: Service?
        var remaining: Int
        var pendingDelay: TimeInterval?

        /// The next page, or `nil` at the end, after `maxPages` pages, or once the task is cancelled.
        public mutating func next() async throws(WebServiceError) -> Service.Response? {
            guard let service = next, remaining > 0, !Task.isCancelled else { return finish() }
            if let delay = pendingDelay {
                do {
                    try await client.configuration.clock.sleep(for: delay)
                } catch {
                    return finish()
                }
            }
            let outcome: WebServiceClient.MappedResponse<Service.Response>
            do {
                outcome = try await client.perform(service, uploadProgress: nil)
            } catch  where error.reason == .network(.cancelled) {
                return finish()
            } catch {
                _ = finish()
                throw error
            }
            remaining -= 1
            next = service.nextPage(after: outcome.response, reply: outcome.reply)
            pendingDelay = service.delayBeforeNextPage(after: outcome.response)
            return outcome.response
        }

        private mutating func finish() -> Service.Response? {
            next = nil
            return nil
        }
    }
}

extension WebServiceClient {
    /// The pages of `service`, starting with `service` itself, at most `maxPages` of them (no limit by
    /// default). Nothing is fetched until iteration starts.
    public func pages<Service: PaginatedService>(of service: Service, maxPages: Int = .max) -> PageSequence<Service> {
        PageSequence(client: self, first: service, maxPages: maxPages)
    }
}

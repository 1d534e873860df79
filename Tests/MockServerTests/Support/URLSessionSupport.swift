import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Runs `body` with a fresh ephemeral session and invalidates it afterwards (a session that is never
/// invalidated keeps its threads and connections alive). The default timeout only stops a hang: under
/// ThreadSanitizer on a loaded machine, an answer that a handler gives from the cooperative pool takes seconds.
func withURLSession<T>(timeout: TimeInterval = 60, _ body: (URLSession) async throws -> T) async throws -> T {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = timeout
    configuration.timeoutIntervalForResource = timeout
    let session = URLSession(configuration: configuration)
    // Not invalidateAndCancel: FoundationNetworking may still count a task whose answer `data(for:)` has just
    // returned as running, cancel it, and resume that call a second time, which traps (seen under ASan).
    defer { session.finishTasksAndInvalidate() }
    return try await body(session)
}

extension URLSession {
    /// The data and HTTP response for `request`.
    func httpData(for request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        return (data, http)
    }
}

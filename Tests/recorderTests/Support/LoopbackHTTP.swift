import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One response as a client saw it: status, header fields and body bytes.
struct SeenResponse: Sendable, Equatable, CustomStringConvertible {
    let status: Int
    let headers: [String: String]
    let body: Data

    /// The header fields that are the connection's, not the exchange's, left out of comparisons.
    static let connectionFields: Set<String> = ["connection", "keep-alive"]

    /// The response without the connection's own header fields, for comparing two servers' answers.
    var exchangeOnly: SeenResponse {
        SeenResponse(status: status, headers: headers.filter { !SeenResponse.connectionFields.contains($0.key.lowercased()) }, body: body)
    }

    var description: String { "\(status) \(headers.sorted { $0.key < $1.key }) \(String(decoding: body, as: UTF8.self))" }
}

/// Sends requests to servers on loopback through one ephemeral URLSession that keeps no cookies or cache,
/// so that the headers a test sets are the ones sent. Invalidate it with ``close()``.
final class LoopbackHTTP: Sendable {
    private let session: URLSession

    init(timeout: TimeInterval = 60) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        session = URLSession(configuration: configuration)
    }

    func close() {
        session.finishTasksAndInvalidate()
    }

    /// Sends `method target` with `headers` and `body` to `base` and returns what came back.
    func send(_ method: String, _ target: String, to base: URL, headers: [(String, String)] = [], body: Data = Data()) async throws -> SeenResponse {
        var request = URLRequest(url: URL(string: base.absoluteString + target)!)
        request.httpMethod = method
        for (name, value) in headers { request.addValue(value, forHTTPHeaderField: name) }
        if !body.isEmpty { request.httpBody = body }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields { fields["\(name)"] = "\(value)" }
        return SeenResponse(status: http.statusCode, headers: fields, body: data)
    }
}

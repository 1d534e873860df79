import Foundation
@testable import MockServer
@testable import MockServerWire
import ServiceReplayTestSupport

extension HTTPServer.Configuration {
    /// The defaults with request and idle timeouts of five minutes, a bound against a hang only: a test awaits
    /// between the parts of a request it sends, and under load the cooperative pool can keep it waiting longer
    /// than the 10 s default request timeout (seen as a 408 under AddressSanitizer).
    static var forTests: Self { .init(requestTimeout: .seconds(300), idleTimeout: .seconds(300)) }
}

/// Runs `body` with a started server answering with `respond`, and stops the server afterwards
/// whether `body` returns or throws.
@discardableResult
func withServer<T>(
    _ configuration: HTTPServer.Configuration = .forTests,
    respond: @escaping @Sendable (HTTPRequest) -> HTTPReply = EchoHandler.echo,
    _ body: (HTTPServer, URL) async throws -> T
) async throws -> T {
    try await withServer(configuration, handler: ClosureHandler { request, _ in respond(request) }, body)
}

/// Runs `body` with a started server answering with `handler`, then stops it.
@discardableResult
func withServer<T>(
    _ configuration: HTTPServer.Configuration = .forTests,
    handler: any HTTPHandler,
    group: EventLoopGroup = .shared,
    _ body: (HTTPServer, URL) async throws -> T
) async throws -> T {
    DescriptorLimit.raise()
    let server = HTTPServer(configuration: configuration, handler: handler, group: group)
    let url = try await server.start()
    do {
        let result = try await body(server, url)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}

/// Answers every request with a description of it, so tests can see what the server parsed.
enum EchoHandler {
    /// 200 with the request body as the body, and `X-Method`, `X-Target`, `X-Version` and
    /// `X-Header-Count` headers.
    @Sendable static func echo(_ request: HTTPRequest) -> HTTPReply {
        .response(
            status: 200,
            headers: [
                "X-Method": request.method,
                "X-Target": request.target,
                "X-Version": request.version,
                "X-Header-Count": String(request.headers.count),
            ], body: request.body)
    }
}

/// A handler built from closures for both hooks.
struct TestHandler: HTTPHandler {
    var admit: @Sendable (HTTPConnectionInfo) -> HTTPAdmission = { _ in .accept }
    var respond: @Sendable (HTTPRequest, HTTPRequestContext) -> HTTPReply

    func reply(to request: HTTPRequest, context: HTTPRequestContext) -> HTTPReply {
        respond(request, context)
    }

    func admission(for connection: HTTPConnectionInfo) -> HTTPAdmission {
        admit(connection)
    }
}

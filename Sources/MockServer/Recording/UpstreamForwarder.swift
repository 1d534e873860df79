import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Forwards a recording server's requests to the upstream, by one of two roads: to an `http://` upstream
/// with a numeric address or `localhost`, over MockServer's own sockets (``LoopUpstreamClient``), building
/// the request and decoding gzip and deflate bodies itself; to any other, through a `URLSession` of its own,
/// the one place that knows URLSession.
///
/// The session keeps no cookies, cache or credentials (the client's own headers carry those), follows no
/// redirects, and decodes compressed bodies. It must be ``invalidate()``d (``CassetteServer/stop()`` does it),
/// because a session holds its delegate and, on Linux, threads until then.
final class UpstreamForwarder: Sendable {
    let upstream: Upstream
    let timeout: Duration
    private let session: URLSession
    private let router: UpstreamTaskRouter
    private let own: LoopUpstreamClient?
    /// The base URL's path as sent on the wire, which each request's target follows.
    private let basePath: String

    init(upstream: Upstream, timeout: Duration) {
        self.upstream = upstream
        self.timeout = max(timeout, .milliseconds(1))
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCredentialStorage = nil
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        // The request timeout bounds each wait for the upstream (for an answer, or between the pieces of a
        // body), and so does the router, counting from the last byte, where URLSession may not.
        configuration.timeoutIntervalForRequest = DurationSpelling.seconds(self.timeout)
        configuration.timeoutIntervalForResource = 7 * 24 * 3600
        router = UpstreamTaskRouter()
        session = URLSession(configuration: configuration, delegate: router.sessionDelegate, delegateQueue: nil)
        own = LoopUpstreamClient(upstream: upstream)
        basePath = URLComponents(url: upstream.url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? ""
    }

    deinit {
        session.invalidateAndCancel()
        own?.invalidate()
    }

    /// Sends `request`'s method and body to `url` (see ``Upstream/url(for:)``) with `headers`, the request's
    /// headers as recorded (see ``ProxyHeaders/recorded(_:upstream:)``), and returns the upstream's response
    /// or transport failure. When `decision` streams the body (``UpstreamBodyRoute/stream(_:)``), the returned
    /// response's body is empty.
    func send(_ request: HTTPRequest, to url: URL, headers: HTTPHeaders, decision: UpstreamStreamDecision? = nil) async -> UpstreamOutcome<HTTPResponse> {
        if let own {
            return await send(request, headers: headers, through: own, decision: decision)
        }
        var urlRequest = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: DurationSpelling.seconds(timeout))
        urlRequest.httpMethod = request.method
        for line in ProxyHeaders.forwarded(headers) {
            urlRequest.addValue(line.value, forHTTPHeaderField: line.name)
        }
        if !request.body.isEmpty {
            urlRequest.httpBody = request.body
        }
        let completion = await router.run(session.dataTask(with: urlRequest), silence: timeout, decision: decision)
        if let error = completion.error {
            return Self.outcome(ofURLError: error.code, message: error.message, headArrived: completion.head != nil)
        }
        guard let head = completion.head else {
            return .unreachable(TransportFailure(kind: .reset, message: "The upstream closed the connection without an answer."))
        }
        let headers = ProxyHeaders.response(head.fields, bodyCount: completion.streamed ? nil : completion.body.count)
        return .response(HTTPResponse(status: head.status, headers: headers, body: completion.body))
    }

    /// Sends over MockServer's own connection: the request as recorded, in its order, with `Host` naming the
    /// upstream (a routed request is recorded under the app's host), the body's length, and `Accept-Encoding`
    /// limited to the codings decoded here, and the answer's header lines as they arrived. A body in another coding, or one that does not decode, is kept as it came, with
    /// its `Content-Encoding`.
    private func send(
        _ request: HTTPRequest, headers: HTTPHeaders, through own: LoopUpstreamClient,
        decision: UpstreamStreamDecision?
    ) async -> UpstreamOutcome<HTTPResponse> {
        var head = "\(request.method) \(basePath)\(request.target) HTTP/1.1\r\n"
        for line in headers where !line.name.caseInsensitiveEquals("content-length") {
            if line.name.caseInsensitiveEquals("host") {
                head += "\(line.name): \(upstream.hostHeader)\r\n"
            } else if line.name.caseInsensitiveEquals("accept-encoding") {
                let accepted = Self.decodableCodings(line.value)
                if !accepted.isEmpty { head += "\(line.name): \(accepted)\r\n" }
            } else {
                head += "\(line.name): \(line.value)\r\n"
            }
        }
        if !request.body.isEmpty || headers.contains("Content-Length") || ["POST", "PUT", "PATCH"].contains(request.method) {
            head += "Content-Length: \(request.body.count)\r\n"
        }
        head += "\r\n"
        let outcome = await own.send(Array(head.utf8) + request.body, expectsBody: request.method != "HEAD", timeout: timeout, decision: decision)
        switch outcome {
        case .failure(let failure):
            return .failure(failure)
        case .unreachable(let failure):
            return .unreachable(failure)
        case .response(let answer):
            let head = answer.head
            var body = answer.body
            let coding = head.headers.values(for: "Content-Encoding").joined(separator: ",")
            var decoded = true
            if !coding.isEmpty {
                if let plain = try? ContentCoding.decode(body, contentEncoding: coding) { body = plain } else { decoded = false }
            }
            let headers = ProxyHeaders.response(
                head.headers.lines.map { ($0.name, $0.value) }, bodyCount: answer.streamed ? nil : body.count,
                decoded: decoded)
            return .response(HTTPResponse(status: head.status, headers: headers, body: body))
        }
    }

    /// The elements of an `Accept-Encoding` value that name a coding decoded here (or `identity`), as the
    /// client wrote them, quality values included; `""` when none does, and the header is then left out.
    static func decodableCodings(_ acceptEncoding: String) -> String {
        acceptEncoding.split(separator: ",").map { $0.trimmingHTTPWhitespace() }.filter { element in
            let name = element.prefix { $0 != ";" }.trimmingHTTPWhitespace().lowercased()
            return name == "identity" || (!name.isEmpty && name != "*" && ContentCoding.canDecode(name))
        }.joined(separator: ", ")
    }

    /// Cuts every streamed body in flight (and any that starts streaming later): its ``send(_:to:headers:decision:)``
    /// then returns a failure after the pieces already passed on.
    func cancelStreams() {
        router.cancelStreams()
        own?.cancelStreams()
    }

    /// Lets exchanges in flight finish, then releases the session and the idle connections; later sends fail at once.
    func invalidate() {
        session.finishTasksAndInvalidate()
        own?.invalidate()
    }

    /// What a URLSession error (`NSURLErrorDomain` `code`) says of the upstream: unreachable when it could not
    /// connect (see ``kind(ofURLErrorCode:)``) or the connection broke before the answer's head arrived, else
    /// its failure.
    static func outcome(ofURLError code: Int, message: String, headArrived: Bool) -> UpstreamOutcome<HTTPResponse> {
        let failure = TransportFailure(kind: kind(ofURLErrorCode: code), message: message)
        return failure.kind == .refused || (failure.kind == .reset && !headArrived) ? .unreachable(failure) : .failure(failure)
    }

    /// How a URLSession error is recorded: could not connect (or find the host, or agree on TLS) is
    /// `refused`, timed out is `timeout`, and anything that broke an open exchange is `reset`.
    static func kind(ofURLErrorCode code: Int) -> TransportFailure.Kind {
        let refused: [URLError.Code] = [
            .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet,
            .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot,
            .clientCertificateRejected, .clientCertificateRequired, .appTransportSecurityRequiresSecureConnection,
        ]
        if code == URLError.Code.timedOut.rawValue { return .timeout }
        if refused.contains(where: { $0.rawValue == code }) { return .refused }
        return .reset
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceReplayShared

/// The header lines this process's `URLSession` adds to a request on its own (`Accept`, `Accept-Encoding`,
/// `Accept-Language`, `User-Agent`, `Connection`, a default `Content-Type` and `Content-Length` for a body),
/// learned once by sending three requests to a server of its own: a routed request answered in-process must
/// reach the server with the very lines it would have had over the socket, or matching on a header such as
/// `Accept-Language` and the journal would tell the two roads apart. Learned rather than listed, because they
/// differ by platform, libcurl build and process name.
///
/// Until they are learned (or when learning failed), routed requests take the socket.
package enum URLSessionAddedHeaders {
    /// What the session adds to one kind of request, split around the request's own lines.
    package struct Lines: Sendable, Equatable {
        /// Written before the request's own lines (after `Host`).
        var before: [HTTPHeader] = []
        /// Written after them.
        var after: [HTTPHeader] = []
    }

    /// What the session adds to each kind of request.
    package struct Profile: Sendable, Equatable {
        /// `GET` and `HEAD` without a body.
        var bodyless: Lines
        /// Any other method without a body (FoundationNetworking adds `Content-Length: 0` to a `DELETE`).
        var otherBodyless: Lines
        /// Any request with a body; its `Content-Length` is the body's.
        var withBody: Lines

        /// The request's own `headers` (`Host` first) with what the session adds for `method` and a body of
        /// `bodyCount` bytes, where the request has no line of that name.
        func applied(to headers: HTTPHeaders, method: String, bodyCount: Int) -> HTTPHeaders {
            let added: Lines
            if bodyCount > 0 {
                added = withBody
            } else if method == "GET" || method == "HEAD" {
                added = bodyless
            } else {
                added = otherBodyless
            }
            var lines = headers.lines
            let hostEnd = lines.first.map { $0.name.caseInsensitiveEquals("Host") } == true ? 1 : 0
            func missing(_ line: HTTPHeader) -> Bool { !headers.contains(line.name) }
            lines.insert(contentsOf: added.before.filter(missing).map { $0.forBody(of: bodyCount) }, at: hostEnd)
            lines.append(contentsOf: added.after.filter(missing).map { $0.forBody(of: bodyCount) })
            return HTTPHeaders(lines)
        }
    }

    private enum State {
        case unknown
        case learning(Task<Profile?, Never>)
        case learned(Profile)
        case failed
    }

    private static let state = Lock(State.unknown)

    /// The profile once learned; `nil` before, and for good when learning failed. Starts learning the first time.
    static var profile: Profile? {
        switch current {
        case .learned(let profile): profile
        case .unknown, .learning, .failed: nil
        }
    }

    /// The profile, once learning is over (`nil` when it failed).
    package static func learned() async -> Profile? {
        switch current {
        case .learned(let profile): profile
        case .learning(let task): await task.value
        case .unknown, .failed: nil
        }
    }

    /// The state, learning started if it was not and the process has descriptors to spare for it (a session
    /// that runs out of them midway may trap in FoundationNetworking; it is tried again later).
    private static var current: State {
        state.withLock { state in
            guard case .unknown = state, Sys.descriptorsLeft(16) else { return state }
            state = .learning(
                Task.detached {
                    let learned = await learn()
                    Self.state.withLock { $0 = learned.map(State.learned) ?? .failed }
                    return learned
                })
            return state
        }
    }

    /// The marker line each learning request carries: the session's own lines are those around it.
    private static let marker = HTTPHeader(name: "X-MockServer-Learning", value: "1")

    private static func learn() async -> Profile? {
        let loopback = try? HostCheck(allowing: [])
        let echo = HTTPServer { request in
            // Only this process's own learning requests are echoed, as every listener answers only loopback names:
            // a page that rebinds a name to this machine for these few milliseconds reads nothing.
            guard loopback?.admits(request.headers["Host"]) == true, request.headers[marker.name] == marker.value else {
                return .response(status: 421)
            }
            // Each line of the request as it arrived, one per line of the body.
            return .response(status: 200, body: Data(request.headers.lines.map { "\($0.name): \($0.value)\n" }.joined().utf8))
        }
        let learned: Profile?
        do {
            let baseURL = try await echo.start()
            let session = HostRouter.shared.makeSession(timeout: 10)
            async let bodyless = lines(for: "GET", body: nil, to: baseURL, in: session)
            async let otherBodyless = lines(for: "DELETE", body: nil, to: baseURL, in: session)
            async let withBody = lines(for: "POST", body: Data("x".utf8), to: baseURL, in: session)
            if let bodyless = await bodyless, let otherBodyless = await otherBodyless, let withBody = await withBody {
                learned = Profile(bodyless: bodyless, otherBodyless: otherBodyless, withBody: withBody)
            } else {
                learned = nil
            }
            session.finishTasksAndInvalidate()
        } catch {
            learned = nil
        }
        await echo.stop()
        return learned
    }

    /// The lines the session added to a `method` request with `body`, as the echo server saw them.
    private static func lines(for method: String, body: Data?, to baseURL: URL, in session: URLSession) async -> Lines? {
        var request = URLRequest(url: baseURL.appendingPathComponent("learning"))
        request.httpMethod = method
        request.httpBody = body
        request.setValue(marker.value, forHTTPHeaderField: marker.name)
        guard let (data, _) = try? await session.data(for: request) else { return nil }
        var added = Lines()
        var seenMarker = false
        for text in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            guard let colon = text.firstIndex(of: ":") else { continue }
            let line = HTTPHeader(name: String(text[..<colon]), value: String(text[text.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
            if line.name.caseInsensitiveEquals(marker.name) {
                seenMarker = true
            } else if !line.name.caseInsensitiveEquals("Host") {
                if seenMarker { added.after.append(line) } else { added.before.append(line) }
            }
        }
        return seenMarker ? added : nil
    }
}

extension HTTPHeader {
    /// This line for a request whose body has `count` bytes: a learned `Content-Length` takes the body's.
    fileprivate func forBody(of count: Int) -> HTTPHeader {
        guard count > 0, name.caseInsensitiveEquals("Content-Length") else { return self }
        return HTTPHeader(name: name, value: String(count))
    }
}

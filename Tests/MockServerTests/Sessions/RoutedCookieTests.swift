import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import MockServer
import ServiceReplayShared
import Testing

/// Cookies through `sessionConfiguration()`, as URLSession keeps them for a direct request: an app that logs in
/// and then calls its API sends its session cookie, recording and replaying alike.
@Suite struct RoutedCookieTests {
    static let secret = "s3cr3t-abc"

    /// An upstream with a cookie session: `/login` sets two cookies, `/me` answers 200 only with the session one.
    static func upstream(_ request: HTTPRequest) -> HTTPReply {
        switch request.path {
        case "/login":
            return .response(
                status: 200,
                headers: HTTPHeaders(pairs: [
                    ("Content-Type", "application/json"), ("Set-Cookie", "session=\(secret); Path=/; HttpOnly"), ("Set-Cookie", "theme=dark; Path=/"),
                ]), body: Data(#"{"ok":true}"#.utf8))
        case "/me":
            let authorized = request.headers["Cookie"]?.contains("session=\(secret)") == true
            return .response(
                status: authorized ? 200 : 401, headers: ["Content-Type": "application/json"],
                body: Data((authorized ? #"{"name":"ada"}"# : #"{"error":"log in first"}"#).utf8))
        default:
            return .response(status: 404)
        }
    }

    /// Logs in, then asks `/me`, through a session made from `server`'s routed configuration (as `configure`
    /// sets it), at the API's own URLs, each request as `request` sets it.
    static func logInAndAskWhoIAm(
        _ server: CassetteServer, configure: (URLSessionConfiguration) -> Void = { _ in }, request: (inout URLRequest) -> Void = { _ in }
    ) async throws -> (Int, String) {
        let configuration = try server.sessionConfiguration()
        configure(configuration)
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        var login = URLRequest(url: URL(string: "https://api.example.test/login")!)
        login.httpMethod = "POST"
        request(&login)
        _ = try await session.data(for: login)
        var me = URLRequest(url: URL(string: "https://api.example.test/me")!)
        request(&me)
        let (data, response) = try await session.data(for: me)
        return ((response as? HTTPURLResponse)?.statusCode ?? -1, String(decoding: data, as: UTF8.self))
    }

    @Test func aLogInThenACall_recordsUnderOnce_andReplaysOffline_withNoCookieInClear() async throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Given a cookie-session upstream on loopback, recorded under once through the routed session
        try await withServer(respond: Self.upstream) { _, upstream in
            try await TestEnvironment.$override.withValue(["MOCKSERVER_RECORD": "once"]) {
                try await withMockServer(replaying: "session", in: folder, upstream: upstream.absoluteString, configuration: .init(faults: .none)) { server in
                    let (status, body) = try await Self.logInAndAskWhoIAm(server)
                    // Then the call after the log-in carried the session cookie, as a direct request would
                    #expect(status == 200, "\(body)")
                    #expect(body == #"{"name":"ada"}"#)
                }
            }
        }
        // And the cassette holds no cookie value in clear
        let text = try String(contentsOf: folder.appendingPathComponent("session.json"), encoding: .utf8)
        #expect(!text.contains(Self.secret))
        #expect(!text.contains("dark"))
        #expect(text.contains("session=\(Cassette.redactionPlaceholder); Path=/; HttpOnly"))

        // When the same test runs offline, replaying what was recorded
        try await TestEnvironment.$override.withValue([:]) {
            try await withMockServer(replaying: "session", in: folder, configuration: .init(faults: .none)) { server in
                let (status, body) = try await Self.logInAndAskWhoIAm(server)
                // Then it passes too: the replayed cookie (a placeholder) is sent back as the recorded one was
                #expect(status == 200)
                #expect(body == #"{"name":"ada"}"#)
                let cookies = server.journal.entries.last?.request.headers["Cookie"]?.components(separatedBy: "; ").sorted()
                #expect(cookies == ["session=\(Cassette.redactionPlaceholder)", "theme=\(Cassette.redactionPlaceholder)"])
            }
        }
    }

    /// A replay server whose `/login` sets a cookie, and the `Cookie` its `/me` then received.
    static func cookieSent(
        configure: (URLSessionConfiguration) -> Void = { _ in }, request: (inout URLRequest) -> Void = { _ in }
    ) async throws -> String? {
        let cassette = Cassette(
            name: "cookies",
            interactions: [
                .stub("POST", "/login", json: ["ok": true], headers: ["Set-Cookie": "session=abc; Path=/"]),
                .stub("GET", "/me", json: ["name": "ada"]),
            ])
        return try await withMockServer(cassettes: [cassette], configuration: .init(faults: .none)) { server in
            _ = try await logInAndAskWhoIAm(server, configure: configure, request: request)
            return server.journal.entries.last?.request.headers["Cookie"]
        }
    }

    @Test func theSessionsCookieSettings_areHonoured_asURLSessionHonoursThem() async throws {
        #expect(try await Self.cookieSent() == "session=abc")
        #expect(try await Self.cookieSent(configure: { $0.httpShouldSetCookies = false }) == nil, "cookies kept but not sent")
        #expect(try await Self.cookieSent(configure: { $0.httpCookieAcceptPolicy = .never }) == nil, "cookies not kept")
        #expect(try await Self.cookieSent(configure: { $0.httpCookieStorage = nil }) == nil, "no storage")
        #expect(try await Self.cookieSent(request: { $0.httpShouldHandleCookies = false }) == nil, "the request handles none")
        let otherDocument = try await Self.cookieSent(
            configure: { $0.httpCookieAcceptPolicy = .onlyFromMainDocumentDomain },
            request: { $0.mainDocumentURL = URL(string: "https://elsewhere.test/") })
        #expect(otherDocument == nil, "only from the main document's domain")
        let sameDocument = try await Self.cookieSent(
            configure: { $0.httpCookieAcceptPolicy = .onlyFromMainDocumentDomain },
            request: { $0.mainDocumentURL = URL(string: "https://api.example.test/") })
        #expect(sameDocument == "session=abc")
    }

    @Test func cookiesAreKeptForTheHostTheClientAskedFor_notForTheLoopbackAddress() async throws {
        let cassette = Cassette(name: "cookies", interactions: [.stub("GET", "/login", json: ["ok": true], headers: ["Set-Cookie": "session=abc"])])
        try await withMockServer(cassettes: [cassette], configuration: .init(faults: .none)) { server in
            let configuration = try server.sessionConfiguration()
            let storage = try #require(configuration.httpCookieStorage)
            let session = URLSession(configuration: configuration)
            defer { session.finishTasksAndInvalidate() }
            _ = try await session.data(from: URL(string: "https://api.example.test/login")!)
            #expect(storage.cookies(for: URL(string: "https://api.example.test/")!)?.map(\.value) == ["abc"])
            #expect(storage.cookies(for: try #require(server.baseURL))?.isEmpty != false)
        }
    }

    /// What the router adds itself, where the platform's URLSession did not (FoundationNetworking adds the stored
    /// cookies to a protocol's request, Darwin by reading does not): never over a `Cookie` the request carries.
    @Test func theCookieHeader_isTheStoredCookies_unlessTheRequestCarriesItsOwn() throws {
        let storage = try #require(URLSessionConfiguration.ephemeral.httpCookieStorage)
        let url = URL(string: "https://api.example.test/me")!
        storage.setCookie(try #require(HTTPCookie(properties: [.name: "session", .value: "abc", .domain: "api.example.test", .path: "/"])))
        let cookies = try #require(RoutedCookies(storage: storage, acceptPolicy: .always, sendsCookies: true))
        var request = URLRequest(url: url)
        #expect(cookies.header(for: request) == "session=abc")
        request.setValue("own=1", forHTTPHeaderField: "Cookie")
        #expect(cookies.header(for: request) == nil)
        #expect(RoutedCookies(storage: nil, acceptPolicy: .always, sendsCookies: true) == nil)
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceKit
import ServiceKitTesting
import Testing

/// The request each encoding produces, observed at the transport.
@Suite struct RequestEncodingTests {
    static let signup = Date(timeIntervalSince1970: 1_384_680_600)  // 2013-11-17 09:30:00 UTC

    func sentRequest(_ service: EchoService, baseURL: String = "https://api.example.test/v1") async throws -> URLRequest {
        let transport = ScriptedTransport(.json(["ok": true]))
        _ = try await makeClient(transport, baseURL: baseURL).send(service)
        return try #require(transport.requests.first)
    }

    @Test func query_formatsValuesAndPercentEncodes() async throws {
        // Given a GET with text, numbers, a boolean, an array, a date and a nil
        let missing: String? = nil
        let service = EchoService(
            endpoint: "/search",
            parameters: [
                "q": "swift ui & co", "page": 2, "ratio": 0.5, "open": true, "tag": ["a b", "c"], "since": Self.signup,
                "missing": missing,
            ])
        // When it is sent
        let request = try await sentRequest(service)
        // Then the query is written in order, RFC 3986 encoded, with the defaults for each kind
        #expect(
            request.url?.absoluteString == "https://api.example.test/v1/search?q=swift%20ui%20%26%20co&page=2"
                + "&ratio=0.5&open=true&tag=a%20b&tag=c&since=2013-11-17T09%3A30%3A00Z")
        #expect(request.httpMethod == "GET")
        #expect(request.httpBody == nil)
    }

    @Test(arguments: [
        (ParameterFormatting.ArrayStyle.repeatedName, "tagged=swift&tagged=ios"),
        (.bracketedName, "tagged%5B%5D=swift&tagged%5B%5D=ios"),
        (.joined(";"), "tagged=swift%3Bios"),
    ])
    func query_writesArraysInTheServiceStyle(style: ParameterFormatting.ArrayStyle, expected: String) async throws {
        let service = EchoService(
            parameters: ["tagged": ["swift", "ios"]],
            parameterFormatting: ParameterFormatting(arrays: style))
        let request = try await sentRequest(service)
        #expect(request.url?.query == expected)
    }

    @Test func query_emptyArray_sendsNothing() async throws {
        let request = try await sentRequest(EchoService(parameters: ["tagged": [String](), "site": "so"]))
        #expect(request.url?.query == "site=so")
    }

    @Test func query_writesBooleansAndDatesInTheServiceStyle() async throws {
        let formatting = ParameterFormatting(dates: .secondsSince1970, booleans: .oneZero)
        let service = EchoService(
            parameters: ["vip": true, "guest": false, "fromdate": Self.signup],
            parameterFormatting: formatting)
        let request = try await sentRequest(service)
        #expect(request.url?.query == "vip=1&guest=0&fromdate=1384680600")
    }

    @Test func form_encodesBodyWithPlusForSpaces() async throws {
        // Given a form POST with characters that need encoding
        let service = EchoService(
            endpoint: "/login", method: .post,
            parameters: ["username": "Ann Lee", "password": "p&ss=1+2"], parameterEncoding: .form)
        // When it is sent
        let request = try await sentRequest(service)
        // Then the body is urlencoded and typed, and the URL has no query
        #expect(request.bodyText == "username=Ann+Lee&password=p%26ss%3D1%2B2")
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/x-www-form-urlencoded")
        #expect(request.url?.absoluteString == "https://api.example.test/v1/login")
        #expect(request.httpMethod == "POST")
    }

    @Test func json_encodesNativeTypesAndFormattedDates() async throws {
        let service = EchoService(
            method: .put,
            parameters: [
                "name": "Ann", "age": 40, "vip": true, "tags": ["a"],
                "joined": Self.signup,
            ],
            parameterEncoding: .json,
            parameterFormatting: ParameterFormatting(dates: .secondsSince1970, booleans: .oneZero))
        let request = try await sentRequest(service)
        #expect(request.bodyText == #"{"age":40,"joined":1384680600,"name":"Ann","tags":["a"],"vip":true}"#)
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    @Test func defaultEncoding_followsTheMethod() {
        #expect(HTTPMethod.get.defaultParameterEncoding == .query)
        #expect(HTTPMethod.delete.defaultParameterEncoding == .query)
        #expect(HTTPMethod.post.defaultParameterEncoding == .json)
        #expect(HTTPMethod.patch.defaultParameterEncoding == .json)
    }

    @Test(arguments: [
        ("https://api.example.test/v1", "/login", "https://api.example.test/v1/login"),
        ("https://api.example.test/v1/", "/login", "https://api.example.test/v1/login"),
        ("https://api.example.test/v1", "login", "https://api.example.test/v1/login"),
        ("https://api.example.test", "/users/a b", "https://api.example.test/users/a%20b"),
        ("https://api.example.test", "/users/100%", "https://api.example.test/users/100%25"),
        ("https://api.example.test", "", "https://api.example.test/"),
        ("https://api.example.test/v1?key=k", "/feeds", "https://api.example.test/v1/feeds?key=k"),
    ])
    func url_joinsBaseAndEndpoint(base: String, endpoint: String, expected: String) async throws {
        let request = try await sentRequest(EchoService(endpoint: endpoint), baseURL: base)
        #expect(request.url?.absoluteString == expected)
    }

    @Test func url_baseQueryAndParameters_areBothKept() async throws {
        let request = try await sentRequest(EchoService(parameters: ["page": 1]), baseURL: "https://x.test/v1?key=k")
        #expect(request.url?.absoluteString == "https://x.test/v1/echo?key=k&page=1")
    }
}

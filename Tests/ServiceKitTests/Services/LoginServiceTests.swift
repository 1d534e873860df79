import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceKit
import ExampleServices
import ServiceKitTesting
import Testing

@Suite struct LoginServiceTests {
    static let baseURL = "https://api.nice.example/v1"
    let service = LoginService(username: "CommandShift", password: "12 34&5")

    @Test func request_postsAFormWithCredentials() async throws {
        let transport = ScriptedTransport(.json(["access_token": "t", "signupdate": "2013-11-17 09:30:00"]))
        _ = try await makeClient(transport, baseURL: Self.baseURL).send(service)
        let request = try #require(transport.requests.first)
        #expect(request.httpMethod == "POST")
        #expect(request.url?.absoluteString == "https://api.nice.example/v1/login")
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/x-www-form-urlencoded")
        #expect(request.bodyText == "username=CommandShift&password=12+34%265")
    }

    @Test func response_mapsTokenAndSignupDateInUTC() async throws {
        let transport = ScriptedTransport(
            .json([
                "access_token": "abc123", "signupdate": "2013-11-17 09:30:00",
                "user_id": "42",
            ]))
        let login = try await makeClient(transport, baseURL: Self.baseURL).send(service)
        #expect(login == LoginResponse(accessToken: "abc123", signupDate: Date(timeIntervalSince1970: 1_384_680_600)))
    }

    @Test func response_missingToken_isMissingField() async {
        let transport = ScriptedTransport(.json(["signupdate": "2013-11-17 09:30:00"]))
        let error = await #expect(throws: WebServiceError.self) {
            try await makeClient(transport, baseURL: Self.baseURL).send(service)
        }
        #expect(error?.reason == .service(.missingField("$.access_token")))
    }

    @Test func response_dateInAnotherFormat_isInvalidField() async {
        let transport = ScriptedTransport(.json(["access_token": "t", "signupdate": "17/11/2013"]))
        let error = await #expect(throws: WebServiceError.self) {
            try await makeClient(transport, baseURL: Self.baseURL).send(service)
        }
        #expect(error?.reason == .service(.invalidField("$.signupdate")))
    }

    @Test func badCredentials_isServiceLevelWithServerMessage() async {
        let transport = ScriptedTransport(
            .json(
                [
                    "error": "invalid_credentials",
                    "message": "The username or password is incorrect.",
                ], status: 401))
        let error = await #expect(throws: WebServiceError.self) {
            try await makeClient(transport, baseURL: Self.baseURL).send(service)
        }
        #expect(error?.reason == .service(.httpStatus(401, message: "The username or password is incorrect.")))
        #expect(
            error?.localizedDescription
                == "The server could not complete the request (HTTP 401): The username or password is incorrect.")
    }

    @Test func refusedConnection_isNetworkLevel_andPostIsNotRetried() async {
        let transport = ScriptedTransport(.fail(URLError(.cannotConnectToHost)))
        let error = await #expect(throws: WebServiceError.self) {
            try await makeClient(transport, baseURL: Self.baseURL, retryPolicy: RetryPolicy(jitter: 0)).send(service)
        }
        #expect(error?.reason == .network(.cannotConnect))
        #expect(transport.requests.count == 1)
    }
}

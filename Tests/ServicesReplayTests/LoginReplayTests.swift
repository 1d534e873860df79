import Foundation
@testable import MockServer
import ServiceKit
import ExampleServices
import Testing

/// `LoginService` against `Recordings/login/login.json` over loopback HTTP.
@Suite(.timeLimit(.minutes(1))) struct LoginReplayTests {
    static let cassette = "login/login"

    @Test func login_readsTheTokenAndSignupDate_fromTheRecording() async throws {
        // Given the recorded successful log-in
        let recorded = try Recordings.cassette(Self.cassette).responseJSON(0)
        try await withReplay(Self.cassette, faults: .none) { replay in
            // When CommandShift logs in (the password is redacted in the cassette and ignored for matching)
            let response = try await replay.client.send(LoginService(username: "CommandShift", password: "hunter2"))

            // Then the token is the recorded one and signupdate ("2013-11-17 09:30:00", UTC) is read as a date
            #expect(response.accessToken == recorded["access_token"]?.string)
            #expect(recorded["signupdate"]?.string == "2013-11-17 09:30:00")
            #expect(response.signupDate == Date(timeIntervalSince1970: 1_384_680_600))
            // And the request was a form POST carrying the username
            let request = try #require(replay.server.journal.entries.first?.request)
            #expect(request.method == "POST")
            #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
            #expect(String(decoding: request.body, as: UTF8.self).contains("username=CommandShift"))
        }
    }

    @Test func login_withBadCredentials_isHTTP401WithTheServersMessage() async throws {
        // Given the recorded refusal of an unknown user
        let recorded = try Recordings.cassette(Self.cassette).responseJSON(1)
        let message = try #require(recorded["message"]?.string)
        try await withReplay(Self.cassette, faults: .none) { replay in
            // When that user logs in
            let error = await #expect(throws: WebServiceError.self) {
                try await replay.client.send(LoginService(username: "nobody-here", password: "wrong"))
            }

            // Then it is a service-level 401 carrying the server's sentence
            #expect(error?.reason == .service(.httpStatus(401, message: message)))
            #expect(error?.statusCode == 401)
            #expect(replay.server.journal.entries.map(\.outcome.kind) == [.matched])
        }
    }

    @Test func login_underTheInvalidCredentialsTemplate_isHTTP401() async throws {
        // Given a server answering every request with the cassette's invalid_credentials template
        let message = try #require(try Recordings.cassette(Self.cassette).templateJSON("invalid_credentials")["message"]?.string)
        try await withReplay(Self.cassette, faults: .specs("service-error=invalid_credentials")) { replay in
            // When a user with good credentials logs in
            let error = await #expect(throws: WebServiceError.self) {
                try await replay.client.send(LoginService(username: "CommandShift", password: "hunter2"))
            }

            // Then the template's 401 is what the caller sees
            #expect(error?.reason == .service(.httpStatus(401, message: message)))
        }
    }
}

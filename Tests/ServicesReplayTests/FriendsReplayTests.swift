import Foundation
@testable import MockServer
import ServiceKit
import ExampleServices
import Testing

/// `FriendsService` against `Recordings/friends/friends.json` over loopback HTTP, with the token as the
/// client's common parameter.
@Suite(.timeLimit(.minutes(1))) struct FriendsReplayTests {
    static let cassette = "friends/friends"
    static let withToken = ClientOptions(commonParameters: { ["token": ServiceCall.friendsToken] })

    @Test func friends_mapEveryField_andSkipTheUserWithoutID() async throws {
        // Given the recorded list: three friends with ids (nulls among their fields) and one without
        let recorded = try #require(try Recordings.cassette(Self.cassette).responseJSON(0).elements)
        try #require(recorded.count == 4)
        try await withReplay(Self.cassette, faults: .none, client: Self.withToken) { replay in
            // When user 42's friends are listed
            let friends = try await replay.client.send(FriendsService(userID: "42"))

            // Then the ones with an id read as recorded, a null reading as absent
            let withID = recorded.filter { $0["id"] != nil }
            #expect(withID.count == 3)
            #expect(friends.count == withID.count)
            for (friend, user) in zip(friends, withID) {
                #expect(friend.id == user["id"]?.string)
                #expect(friend.email == user["email"]?.string)
                #expect(friend.name == user["name"]?.string)
            }
            #expect(friends.map(\.email).contains(nil) && friends.map(\.name).contains(nil))
            // And the token went out as a query parameter, added by the client
            let query = try #require(replay.server.journal.entries.first?.request.query)
            #expect(query.contains("token=\(ServiceCall.friendsToken)"))
            #expect(query.contains("user_id=42"))
        }
    }

    @Test func friends_withATokenNotValidForTheUser_isTheRecorded401() async throws {
        // Given the recorded 401 for user 0
        let message = try #require(try Recordings.cassette(Self.cassette).responseJSON(1)["message"]?.string)
        try await withReplay(Self.cassette, faults: .none, client: Self.withToken) { replay in
            // When user 0's friends are listed
            let error = await #expect(throws: WebServiceError.self) {
                try await replay.client.send(FriendsService(userID: "0"))
            }

            // Then it is HTTP 401 "Invalid token"
            #expect(error?.reason == .service(.httpStatus(401, message: message)))
        }
    }

    @Test func friends_underTheInvalidTokenTemplate_isHTTP401() async throws {
        // Given a server answering with the invalid_token template
        let message = try #require(try Recordings.cassette(Self.cassette).templateJSON("invalid_token")["message"]?.string)
        try await withReplay(Self.cassette, faults: .specs("service-error=invalid_token"), client: Self.withToken) { replay in
            // When user 42's friends are listed
            let error = await #expect(throws: WebServiceError.self) {
                try await replay.client.send(FriendsService(userID: "42"))
            }

            // Then it is the template's 401
            #expect(error?.reason == .service(.httpStatus(401, message: message)))
        }
    }
}

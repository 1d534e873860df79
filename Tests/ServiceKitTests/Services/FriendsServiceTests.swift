import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceKit
import ExampleServices
import ServiceKitTesting
import Testing

@Suite struct FriendsServiceTests {
    static let baseURL = "https://api.nice.example/v1"

    func client(_ transport: ScriptedTransport) -> WebServiceClient {
        makeClient(transport, baseURL: Self.baseURL, commonParameters: { ["token": "secret-token"] })
    }

    @Test func request_sendsUserIdAndTheClientsToken() async throws {
        let transport = ScriptedTransport(.json([]))
        _ = try await client(transport).send(FriendsService(userID: "42"))
        let request = try #require(transport.requests.first)
        #expect(request.httpMethod == "GET")
        #expect(request.url?.absoluteString == "https://api.nice.example/v1/friends?user_id=42&token=secret-token")
    }

    @Test func response_mapsUsersSkipsThoseWithoutIdAndDropsNulls() async throws {
        // Given users with null fields and one without an id, as raw JSON text
        let body =
            #"[{"id": "17", "email": "ann@example.com", "name": "Ann Lee"}, {"id": "18", "email": null, "name": null},"#
            + #" {"email": "ghost@example.com", "name": "No Id"}, {"id": 19}]"#
        let transport = ScriptedTransport(.respond(.text(body, contentType: "application/json")))
        // When the friends are fetched
        let friends = try await client(transport).send(FriendsService(userID: "42"))
        // Then every user with an id is there, nulls as nil, a numeric id read as text
        #expect(friends == [Friend(id: "17", email: "ann@example.com", name: "Ann Lee"), Friend(id: "18"), Friend(id: "19")])
    }

    @Test func response_notAnArray_isInvalidField() async {
        let transport = ScriptedTransport(.json(["friends": []]))
        let error = await #expect(throws: WebServiceError.self) { try await client(transport).send(FriendsService(userID: "42")) }
        #expect(error?.reason == .service(.invalidField("$")))
    }

    @Test func badToken_isServiceLevel() async {
        let transport = ScriptedTransport(.json(["message": "Invalid token"], status: 401))
        let error = await #expect(throws: WebServiceError.self) { try await client(transport).send(FriendsService(userID: "42")) }
        #expect(error?.reason == .service(.httpStatus(401, message: "Invalid token")))
    }

    @Test func offline_isNetworkLevel() async {
        let transport = ScriptedTransport(.fail(URLError(.notConnectedToInternet)))
        let error = await #expect(throws: WebServiceError.self) { try await client(transport).send(FriendsService(userID: "42")) }
        #expect(error?.reason == .network(.notConnected))
    }
}

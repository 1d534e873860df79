import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceKit
import ServiceKitTesting
import Testing

/// `GraphQLService`: the request it sends, byte for byte, and the two error families of its answers.
@Suite struct GraphQLServiceTests {
    struct User: Decodable, Sendable, Equatable {
        let login: String
        let name: String?
    }

    struct UserQuery: GraphQLService {
        struct Variables: Encodable, Sendable { let login: String }
        struct Response: Decodable, Sendable { let user: User? }
        let login: String
        var persistedQuery: GraphQLPersistedQuery?
        var document: String { "query User($login: String!) { user(login: $login) { login name } }" }
        var variables: Variables { Variables(login: login) }
    }

    struct ViewerQuery: GraphQLService {
        struct Response: Decodable, Sendable { let viewer: User }
        var document: String { "{ viewer { login name } }" }
    }

    static let base = URL(string: "https://api.example.com/v1/")!

    /// What `service` sends and what it makes of `answer`.
    static func send<Service: GraphQLService>(
        _ service: Service, answer: ScriptedTransport.Step = .json(["data": ["viewer": ["login": "octocat"]]])
    ) async -> (URLRequest?, Result<Service.Response, WebServiceError>) {
        let transport = ScriptedTransport(answer)
        let client = WebServiceClient(baseURL: base, transport: transport)
        let result: Result<Service.Response, WebServiceError>
        do {
            result = .success(try await client.send(service))
        } catch {
            result = .failure(error)
        }
        return (transport.requests.first, result)
    }

    static func body(_ request: URLRequest?) -> String {
        String(decoding: request?.httpBody ?? Data(), as: UTF8.self)
    }

    @Test func anOperation_isAPOSTOfItsDocumentNameAndVariables_andItsDataIsTheResponse() async throws {
        let (request, result) = await Self.send(
            UserQuery(login: "octocat"), answer: .json(["data": ["user": ["login": "octocat", "name": "The Octocat"]]]))
        #expect(request?.httpMethod == "POST")
        #expect(request?.url?.absoluteString == "https://api.example.com/v1/graphql")
        #expect(request?.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(
            Self.body(request)
                == #"{"operationName":"User","query":"query User($login: String!) { user(login: $login) { login name } }","variables":{"login":"octocat"}}"#
        )
        #expect(try result.get().user == User(login: "octocat", name: "The Octocat"))
    }

    @Test func anAnonymousOperationWithoutVariables_sendsNoNameAndEmptyVariables() async throws {
        let (request, result) = await Self.send(ViewerQuery())
        #expect(Self.body(request) == #"{"query":"{ viewer { login name } }","variables":{}}"#)
        #expect(try result.get().viewer == User(login: "octocat", name: nil))
    }

    @Test func errors_areServiceLevel_withMessagesPathsCodes_andThePartialData() async throws {
        // GIVEN an answer with data for one field and an error for another
        let answer =
            #"{"data":{"user":{"login":"octocat","name":null}},"errors":[{"message":"name is private","path":["user","name"],"extensions":{"code":"FORBIDDEN"}}]}"#
        let (_, result) = await Self.send(UserQuery(login: "octocat"), answer: .respond(.text(answer, contentType: "application/json")))
        // THEN it is a service-level error a caller can switch on, with what the server said
        guard case .failure(let error) = result, case .service(.graphQL(let failure)) = error.reason else {
            Issue.record("expected a GraphQL error, got \(result)")
            return
        }
        #expect(failure.errors.map(\.message) == ["name is private"])
        #expect(failure.errors.map(\.path) == [[.field("user"), .field("name")]])
        #expect(failure.errors.map(\.code) == ["FORBIDDEN"])
        #expect(error.localizedDescription == "The service reported an error: name is private.")
        // AND the partial data is there for a caller who wants it
        #expect(try failure.partialData(as: UserQuery.Response.self)?.user == User(login: "octocat", name: nil))
    }

    @Test func errorsWithoutData_andErrorsOutsideA2xx_areGraphQLErrorsToo() async throws {
        let forbidden = #"{"data":null,"errors":[{"message":"no","path":["repos",2],"extensions":{"code":"FORBIDDEN"}}]}"#
        let (_, ok) = await Self.send(ViewerQuery(), answer: .respond(.text(forbidden, contentType: "application/json")))
        let (_, bad) = await Self.send(ViewerQuery(), answer: .json(["errors": [["message": "Syntax Error"]]], status: 400))
        guard case .failure(let first) = ok, case .service(.graphQL(let withoutData)) = first.reason,
            case .failure(let second) = bad, case .service(.graphQL(let badRequest)) = second.reason
        else {
            Issue.record("expected two GraphQL errors, got \(ok) and \(bad)")
            return
        }
        #expect(withoutData.data == nil)
        #expect(withoutData.errors.map(\.path) == [[.field("repos"), .index(2)]])
        #expect(try withoutData.partialData(as: ViewerQuery.Response.self) == nil)
        #expect(badRequest.errors.map(\.code) == [nil])
        #expect(second.statusCode == 400)
    }

    @Test func aRateLimit_andA503_stayWhatTheyAre_soRetriesApply() async {
        let (_, limited) = await Self.send(ViewerQuery(), answer: .json(["errors": [["message": "slow down"]]], status: 429))
        let (_, down) = await Self.send(ViewerQuery(), answer: .json(["errors": [["message": "down"]]], status: 503))
        #expect(limited.failureReason.map { "\($0)" } == "\(WebServiceError.Reason.service(.rateLimited(retryAfter: nil)))")
        guard case .service(.httpStatus(503, _))? = down.failureReason else {
            Issue.record("expected an HTTP 503, got \(down)")
            return
        }
    }

    @Test func aTransportFailure_isNetworkLevel() async {
        let (_, result) = await Self.send(ViewerQuery(), answer: .fail(URLError(.networkConnectionLost)))
        guard case .network(.connectionLost)? = result.failureReason else {
            Issue.record("expected a lost connection, got \(result)")
            return
        }
    }

    @Test func aPersistedQuery_isSentByItsHash_overPOSTorGET() async throws {
        let hash = "ecf4edb46db40b5132295c0291d62fb65d6759a9eedfa4d5d612dd5ec54a6b38"
        // By hash alone, over POST: no document
        let (post, _) = await Self.send(UserQuery(login: "octocat", persistedQuery: GraphQLPersistedQuery(sha256Hash: hash)))
        #expect(
            Self.body(post)
                == #"{"extensions":{"persistedQuery":{"sha256Hash":"\#(hash)","version":1}},"operationName":"User","variables":{"login":"octocat"}}"#)
        // With its document, as a client registering it
        let (register, _) = await Self.send(
            UserQuery(login: "octocat", persistedQuery: GraphQLPersistedQuery(sha256Hash: hash, includesDocument: true)))
        #expect(Self.body(register).contains(#""query":"query User($login: String!)"#))
        #expect(Self.body(register).contains(#""extensions":{"persistedQuery""#))
        // Over GET: the fields in the query, no body
        let (get, result) = await Self.send(
            UserQuery(login: "octo/cat", persistedQuery: GraphQLPersistedQuery(sha256Hash: hash, usesGET: true)),
            answer: .json(["data": ["user": ["login": "octocat"]]]))
        #expect(get?.httpMethod == "GET")
        #expect(get?.httpBody == nil)
        let items = URLComponents(url: try #require(get?.url), resolvingAgainstBaseURL: false)?.queryItems ?? []
        #expect(
            items.sorted { $0.name < $1.name }.map { "\($0.name)=\($0.value ?? "")" } == [
                #"extensions={"persistedQuery":{"sha256Hash":"\#(hash)","version":1}}"#, "operationName=User", #"variables={"login":"octo/cat"}"#,
            ])
        #expect(try result.get().user?.login == "octocat")
    }
}

extension Result where Failure == WebServiceError {
    /// The failure's reason, `nil` on success.
    var failureReason: WebServiceError.Reason? {
        guard case .failure(let error) = self else { return nil }
        return error.reason
    }
}

import Foundation
import ServiceReplayShared
@testable import MockServer
import Testing

/// GraphQL requests matched by operation through a real socket: the document normalized, the variables as JSON,
/// a persisted-query `GET` like its `POST`, a near miss naming the operation and the variable, and faults that
/// select an operation.
@Suite struct MatchGraphQLTests {
    static let viewerQuery = "query Viewer { viewer { login name } }"
    static let userQuery = "query User($login: String!) { user(login: $login) { login, name } }"

    /// A cassette holding what a GraphQL server answered to `Viewer`, to `User` for octocat, and to a persisted
    /// `User` query over `GET`.
    static func cassette(matching: MatchRules = MatchRules()) -> Cassette {
        func post(_ body: CassetteJSON, answer: CassetteJSON) -> Interaction {
            .stub("POST", "/graphql", json: answer, requestBody: .json(body), requestHeaders: ["Content-Type": "application/json"])
        }
        let persisted = #"{"persistedQuery":{"version":1,"sha256Hash":"abc123"}}"#
        let target =
            "/graphql?operationName=User&variables=%7B%22login%22%3A%22mona%22%2C%22first%22%3A2%7D&extensions="
            + (persisted.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        return Cassette(
            name: "github-graphql", upstream: "https://api.github.com", matching: matching,
            interactions: [
                post(["query": .string(viewerQuery), "variables": [:]], answer: ["data": ["viewer": ["login": "octocat"]]]),
                post(
                    ["query": .string(userQuery), "operationName": "User", "variables": ["login": "octocat"]],
                    answer: ["data": ["user": ["login": "octocat"]]]),
                .stub("GET", target, json: ["data": ["user": ["login": "mona"]]]),
            ])
    }

    static func post(_ base: URL, _ body: String) async throws -> RawHTTPClient.Response {
        try await rawExchange(base, "POST /graphql HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json", body: Data(body.utf8))
    }

    @Test(arguments: [
        ("query  Viewer {\n  viewer {\n    login,\n    name\n  }\n}", "query Viewer{viewer{login name}}"),
        ("# mine\nquery Viewer { viewer { login } } # trailing", "query Viewer{viewer{login}}"),
        (#"{ search(q: "a,  b # c") { id } }"#, #"{search(q:"a,  b # c"){id}}"#),
        ("{ f(text: \"\"\"a \\\"\"\" ,b\"\"\") }", "{f(text:\"\"\"a \\\"\"\" ,b\"\"\")}"),
        ("query Q($a: Int = 1, $b: [ID!]) { ...F @include(if: true) }", "query Q($a:Int=1$b:[ID!]){...F@include(if:true)}"),
        ("\u{FEFF}{ a }", "{a}"),
        (#"{ f(s: "\"")  g }"#, #"{f(s:"\"")g}"#),
        (#"{ f(list: [a "x"]) }"#, #"{f(list:[a"x"])}"#),
        ("{ f(s: \"\"\"a \"\" b\"\"\")  g }", "{f(s:\"\"\"a \"\" b\"\"\")g}"),
        ("{ f(s: \"\"\"say \"x\" ,  now\"\"\")  g }", "{f(s:\"\"\"say \"x\" ,  now\"\"\")g}"),
    ])
    func document_dropsIgnoredTokens_andKeepsStrings(text: String, expected: String) {
        #expect(GraphQLDocument.normalized(text) == expected)
    }

    @Test(arguments: [
        ("query Viewer { viewer { login } }", "Viewer"),
        ("fragment F on User { login } mutation AddStar($id: ID!) { addStar(id: $id) { ...F } }", "AddStar"),
        ("subscription\n  OnIssue { issue { id } }", "OnIssue"),
        ("{ viewer { login } }", nil),
        ("query($id: ID) { node(id: $id) { id } }", nil),
        (#"fragment F on Q { a(s: "query Fake {") } query Real { b }"#, "Real"),
        ("{ a } query Second { b }", nil),
    ])
    func firstOperationName_isTheFirstNamedOperation(text: String, expected: String?) {
        #expect(GraphQLDocument.firstOperationName(in: text) == expected)
    }

    @Test(arguments: [
        ("{ viewer { login } }", true), ("mutation { a }", true), ("query($id: ID) { a }", true), ("query @live { a }", true),
        ("query Q { a }", true), ("shoes", false), ("query", false), ("queryX { a }", false), ("query.x", false),
    ])
    func aSearchAPIsQueryParameter_isNotADocument(text: String, isDocument: Bool) {
        #expect(GraphQLDocument.looksLikeDocument(text) == isDocument)
    }

    @Test(arguments: [
        (#"{"query":"query User { user { id } }"}"#, true),
        (#"{"query":"{ viewer { id } }"}"#, true),
        (#"{"query":"mutation AddStar { addStar { id } }"}"#, false),
        (#"{"query":"query A { a } mutation B { b }","operationName":"B"}"#, false),
        (#"{"query":"query A { a } mutation B { b }","operationName":"A"}"#, true),
        (#"{"query":"fragment F on Query { a } query Q { ...F }"}"#, true),
        (#"[{"query":"{ a }"},{"query":"mutation { b }"}]"#, false),
        (#"{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"abc"}}}"#, false),
        (#"{"query":"shoes"}"#, false),
    ])
    func onlyQueries_areReadOnly(body: String, readOnly: Bool) throws {
        #expect(GraphQLRequest.isReadOnly(.json(try CassetteJSON(parsing: body))) == readOnly)
    }

    @Test func driftErrors_whereTheRecordingHadData_areBreaking_atTheirDataPath() throws {
        let recorded = try CassetteJSON(parsing: #"{"data":{"repos":[{"name":"a"}]}}"#)
        let withPath = try CassetteJSON(parsing: #"{"data":{"repos":[null]},"errors":[{"message":"gone","path":["repos",0,"name"]}]}"#)
        let withoutPath = try CassetteJSON(parsing: #"{"data":null,"errors":[{"message":"down"},{"message":"down"}]}"#)
        #expect(
            DriftComparison.graphQLErrorChanges(recorded: recorded, live: withPath).map(\.line) == [
                #"breaking  $.data.repos[0].name: string → error "gone" (GraphQL error where the recording had none)"#
            ])
        #expect(
            DriftComparison.graphQLErrorChanges(recorded: recorded, live: withoutPath).map(\.line) == [
                #"breaking  $.errors: no error → error "down" (GraphQL error where the recording had none)"#
            ])
        // A recording that had errors too is compared by shape alone, and an answer without errors adds nothing
        #expect(DriftComparison.graphQLErrorChanges(recorded: withoutPath, live: withPath).isEmpty)
        #expect(DriftComparison.graphQLErrorChanges(recorded: withPath, live: recorded).isEmpty)
    }

    @Test func operations_matchWhateverTheirLayout_andVariablesCompareAsJSON() async throws {
        try await withMockServer(cassettes: [Self.cassette()], configuration: .init(faults: .none, strict: false)) { server in
            let base = try #require(server.baseURL)
            // WHEN the client sends the documents laid out otherwise, with comments, and the variables' keys reordered
            let viewer = try await Self.post(
                base, ##"{"variables":{},"query":"# the signed-in user\nquery Viewer {\n  viewer {\n    login\n    name\n  }\n}"}"##)
            let user = try await Self.post(
                base, #"{"operationName":"User","variables":{"login":"octocat"},"query":"query User($login: String!) {user(login: $login) {login name}}"}"#)
            // AND a persisted query over GET, its variables' keys in another order
            let persisted = try await rawExchange(
                base,
                "GET /graphql?extensions=%7B%22persistedQuery%22%3A%7B%22sha256Hash%22%3A%22abc123%22%2C%22version%22%3A1%7D%7D&operationName=User&variables=%7B%22first%22%3A2%2C%22login%22%3A%22mona%22%7D HTTP/1.1\r\nHost: localhost"
            )
            // THEN each is answered with its own recording, byte for byte
            #expect(viewer.status == 200)
            #expect(viewer.bodyText == #"{"data":{"viewer":{"login":"octocat"}}}"#)
            #expect(user.bodyText == #"{"data":{"user":{"login":"octocat"}}}"#)
            #expect(persisted.bodyText == #"{"data":{"user":{"login":"mona"}}}"#)
        }
    }

    @Test func aVariableThatDiffers_isANearMissNamingTheOperationAndTheVariable() async throws {
        try await withMockServer(cassettes: [Self.cassette()], configuration: .init(faults: .none, strict: false)) { server in
            // WHEN User is asked for hubot, never recorded
            let response = try await Self.post(
                try #require(server.baseURL), #"{"operationName":"User","variables":{"login":"hubot"},"query":"\#(Self.userQuery)"}"#)
            // THEN the 404 names the operation and the variable, and nothing else
            #expect(response.status == 404)
            let report = try CassetteJSON(parsing: response.body)
            let message = try #require(report["message"]?.stringValue)
            #expect(message.hasPrefix("No recorded interaction matches POST /graphql (GraphQL User).\n"))
            #expect(report["differences"] == [#"$.variables.login: recorded "octocat", received "hubot""#])
            #expect(report["request"]?["operations"] == ["User"])
        }
    }

    @Test func aJSONScalarOrAnArrayWithoutRequests_isNotGraphQL() throws {
        #expect(!GraphQLRequest.isGraphQL(.json("query { a }")))
        #expect(!GraphQLRequest.isGraphQL(.json([1, 2])))
        #expect(GraphQLRequest.isGraphQL(.json(try CassetteJSON(parsing: #"[1, {"query":"{ a }"}]"#))))
    }

    @Test func aBodyThatIsNotJSON_isNeverReadOnlyGraphQL() {
        #expect(!GraphQLRequest.isReadOnly(.form([FormField(name: "query", value: "{ a }")])))
        #expect(!GraphQLRequest.isReadOnly(.bytes(Data("{ a }".utf8))))
    }

    @Test func aPersistedGETsOtherQueryFields_stillCompare() async throws {
        let persisted = "extensions=%7B%22persistedQuery%22%3A%7B%22version%22%3A1%2C%22sha256Hash%22%3A%22abc123%22%7D%7D"
        let cassette = Cassette(
            name: "gql",
            interactions: [.stub("GET", "/graphql?operationName=Viewer&client=ios&\(persisted)", json: ["data": ["viewer": "ios"]])])
        try await withMockServer(cassettes: [cassette], configuration: .init(faults: .none, strict: false)) { server in
            let base = try #require(server.baseURL)
            // WHEN the same persisted query comes with another value of a field that is not GraphQL's
            let android = try await rawExchange(base, "GET /graphql?operationName=Viewer&client=android&\(persisted) HTTP/1.1\r\nHost: localhost")
            let ios = try await rawExchange(base, "GET /graphql?client=ios&\(persisted)&operationName=Viewer HTTP/1.1\r\nHost: localhost")
            // THEN that field still decides
            #expect(android.status == 404)
            #expect(try CassetteJSON(parsing: android.body)["differences"] == [#"query client: recorded "ios", received "android""#])
            #expect(ios.bodyText == #"{"data":{"viewer":"ios"}}"#)
        }
    }

    @Test func aFreshUUIDInTheVariables_getsTheHintThatLeavesItOut() async throws {
        let recorded = "5458922B-0F2C-4C43-9C55-0D2A5C4B7E11"
        let mutation = "mutation AddStar($repo: String!, $id: String!) { addStar(repo: $repo, clientMutationId: $id) { stars } }"
        let cassette = Cassette(
            name: "gql",
            interactions: [
                .stub(
                    "POST", "/graphql", json: ["data": [:]],
                    requestBody: .json(["query": .string(mutation), "variables": ["repo": "a", "id": .string(recorded)]]))
            ])
        try await withMockServer(cassettes: [cassette], configuration: .init(faults: .none, strict: false)) { server in
            let base = try #require(server.baseURL)
            // WHEN the client draws another UUID, and (separately) asks for another repository
            let fresh = try await Self.post(
                base, #"{"query":"\#(mutation)","variables":{"repo":"a","id":"a1554e69-7d5e-4b1f-9f0e-6c1e2d3f4a5b"}}"#)
            let other = try await Self.post(base, #"{"query":"\#(mutation)","variables":{"repo":"b","id":"\#(recorded)"}}"#)
            // THEN only the UUID's near miss says how to leave it out
            let hint = try CassetteJSON(parsing: fresh.body)["message"]?.stringValue ?? ""
            #expect(
                hint.hasSuffix(
                    #"A UUID that differs in the body is often drawn afresh by the client on each run (a client mutation ID, an idempotency key): if so, leave it out with the cassette's "matching": {"ignoreBodyPaths": ["$.variables.id"]}."#
                ), "\(hint)")
            #expect(try !(CassetteJSON(parsing: other.body)["message"]?.stringValue ?? "UUID").contains("UUID"))
        }
    }

    @Test func ignoredVariables_areLeftOut_overPOSTandGET() async throws {
        // GIVEN a cassette that leaves out the variables' `first`
        let cassette = Self.cassette(matching: MatchRules(ignoredBodyPaths: ["$.variables.first"]))
        try await withMockServer(cassettes: [cassette], configuration: .init(faults: .none, strict: false)) { server in
            // WHEN the persisted GET asks for 5 where 2 was recorded
            let response = try await rawExchange(
                try #require(server.baseURL),
                "GET /graphql?operationName=User&variables=%7B%22login%22%3A%22mona%22%2C%22first%22%3A5%7D&extensions=%7B%22persistedQuery%22%3A%7B%22version%22%3A1%2C%22sha256Hash%22%3A%22abc123%22%7D%7D HTTP/1.1\r\nHost: localhost"
            )
            // THEN it is answered
            #expect(response.bodyText == #"{"data":{"user":{"login":"mona"}}}"#)
        }
    }

    @Test func aFaultThatSelectsAnOperation_breaksThatOperationAlone() async throws {
        // GIVEN a plan breaking User with a 503, and Viewer with a GraphQL error
        let plan = try FaultPlan.parse(specs: "status=503,operation=User; graphql-error=FORBIDDEN,operation=Viewer")
        try await withMockServer(cassettes: [Self.cassette()], configuration: .init(faults: .plan(plan), strict: false)) { server in
            let base = try #require(server.baseURL)
            let user = try await Self.post(base, #"{"operationName":"User","variables":{"login":"octocat"},"query":"\#(Self.userQuery)"}"#)
            let viewer = try await Self.post(base, #"{"query":"\#(Self.viewerQuery)","variables":{}}"#)
            let persisted = try await rawExchange(
                base,
                "GET /graphql?operationName=User&variables=%7B%22login%22%3A%22mona%22%2C%22first%22%3A2%7D&extensions=%7B%22persistedQuery%22%3A%7B%22version%22%3A1%2C%22sha256Hash%22%3A%22abc123%22%7D%7D HTTP/1.1\r\nHost: localhost"
            )
            // THEN User is refused over POST and GET alike, and Viewer gets a service-level error in a 200
            #expect(user.status == 503)
            #expect(persisted.status == 503)
            #expect(viewer.status == 200)
            #expect(viewer.headers["Content-Type"] == "application/json")
            #expect(
                viewer.bodyText
                    == #"{"data":{"viewer":{"login":"octocat"}},"errors":[{"message":"MockServer injected a GraphQL error: FORBIDDEN","extensions":{"code":"FORBIDDEN"}}]}"#
            )
            #expect(
                server.journal.entries.map(\.outcome.faultRule) == [
                    "rule 1 'status=503,operation=User' on match 1", "rule 2 'graphql-error=FORBIDDEN,operation=Viewer' on match 1",
                    "rule 1 'status=503,operation=User' on match 2",
                ])
        }
    }

    @Test func theJournal_namesEachRequestsOperation() async throws {
        try await withMockServer(cassettes: [Self.cassette()], configuration: .init(faults: .none, strict: false)) { server in
            let base = try #require(server.baseURL)
            // GIVEN a named operation, an anonymous one, and a request that is not GraphQL
            _ = try await Self.post(base, #"{"operationName":"User","variables":{"login":"octocat"},"query":"\#(Self.userQuery)"}"#)
            _ = try await Self.post(base, #"{"query":"{ viewer { login } }"}"#)
            _ = try await rawExchange(base, "GET /graphql?query=shoes HTTP/1.1\r\nHost: localhost")
            // WHEN the journal is read through the control API
            let response = try await rawExchange(base, "GET /__mockserver/journal HTTP/1.1\r\nHost: localhost")
            let entries = try #require(try CassetteJSON(parsing: response.body)["entries"])
            // THEN only the named operation's entry names it
            #expect(entries[0]?["operations"] == ["User"])
            #expect(entries[1]?["operations"] == nil)
            #expect(entries[2]?["operations"] == nil)
            #expect(entries[2]?["target"] == "/graphql?query=shoes")
        }
    }

    @Test func operationRules_readTheSameFromSpecsAndPlanFiles() throws {
        let spec = try FaultPlan.parse(specs: "graphql-error,operation=User; latency=10ms,path=/graphql,operation=AddStar")
        let file = try FaultPlan.decode(
            json: Data(
                #"{"rules":[{"fault":"graphql-error","operation":"User"},{"fault":"latency","ms":10,"path":"/graphql","operation":"AddStar"}]}"#.utf8))
        #expect(spec.rules.map(\.description) == ["graphql-error=INTERNAL_SERVER_ERROR,operation=User", "latency=10ms,path=/graphql,operation=AddStar"])
        #expect(file.rules.map(\.description) == spec.rules.map(\.description))
        #expect(spec.rules[0].fault.family == .service)
    }

    @Test(arguments: [
        ("status=503,operation=get-user", "operation 'get-user' is not a GraphQL operation name"),
        ("refuse,operation=User", "refuse acts before a request is read, so it cannot be filtered by path, method or operation"),
        ("graphql-error=not allowed", "graphql-error takes an error code made of letters, digits and _"),
        ("status=503,operations=User", "option 'operations' is not one of when, path, method, operation"),
    ])
    func anOperationRuleThatCannotTakeEffect_isRefusedWithOneSentence(spec: String, reason: String) {
        #expect {
            _ = try FaultPlan.parse(specs: spec)
        } throws: { error in
            "\(error)".contains(reason)
        }
    }

    @Test func aPlanFileOperationThatIsNoName_isRefused() {
        #expect {
            _ = try FaultPlan.decode(json: Data(#"{"rules":[{"fault":"reset","operation":"1User"}]}"#.utf8))
        } throws: { error in
            "\(error)".contains("operation '1User' is not a GraphQL operation name")
        }
    }
}

import Foundation
@testable import MockServer
import Testing

/// The index must find exactly the interactions a pairwise comparison finds, however they are bucketed,
/// shaped and grouped. Inputs come from a seeded generator, so every run checks the same cases.
@Suite struct MatchIndexTests {
    private struct Generator {
        var random: SeededGenerator

        mutating func pick<T>(_ options: [T]) -> T { options[Int(random.next() % UInt64(options.count))] }
        mutating func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }

        /// A request from a small alphabet, so that collisions, repeats and near misses are common.
        /// `recorded` ones may carry redaction placeholders; received ones carry real values.
        mutating func request(recorded: Bool) -> (method: String, target: String, headers: HTTPHeaders, body: Data, type: String?) {
            let method = pick(["GET", "GET", "POST"])
            let path = pick(["/a", "/b", "/a/1", "/a%2F1"])
            var query: [String] = []
            for field in ["x=1", "x=2", "y=1", "_=5", "_=6"] where chance(30) { query.append(field) }
            if chance(40) { query.append(recorded && chance(70) ? "token=<redacted>" : pick(["token=t1", "token=t2"])) }
            query.shuffle(using: &random)
            let target = query.isEmpty ? path : path + "?" + query.joined(separator: "&")
            var headers: HTTPHeaders = [:]
            if chance(60) { headers.add(name: pick(["Accept", "accept"]), value: pick(["a", "b"])) }
            if chance(30) { headers.add(name: "Authorization", value: recorded && chance(70) ? "<redacted>" : pick(["k1", "k2"])) }
            guard method == "POST" else { return (method, target, headers, Data(), nil) }
            switch random.next() % 3 {
            case 0:
                let secret = recorded && chance(50) ? "\"<redacted>\"" : pick(["\"s1\"", "\"s2\"", "{\"deep\": 1}"])
                let body = pick([#"{"a": 1, "ts": 7}"#, #"{"a": 1.0}"#, #"{"a": 2, "secret": \#(secret)}"#, #"{"secret": \#(secret), "a": 2}"#, "[1, 2]"])
                return (method, target, headers, Data(body.utf8), "application/json")
            case 1:
                let password = recorded && chance(50) ? "%3Credacted%3E" : pick(["p1", "p2"])
                let body = pick(["u=ann&password=\(password)", "password=\(password)&u=ann", "u=bob&ts=1"])
                return (method, target, headers, Data(body.utf8), "application/x-www-form-urlencoded")
            default:
                return (method, target, headers, Data(pick(["abc", "abd"]).utf8), "application/octet-stream")
            }
        }

        mutating func recordedRequest() -> RecordedRequest {
            let parts = request(recorded: true)
            var headers = parts.headers
            if let type = parts.type { headers.add(name: "Content-Type", value: type) }
            return RecordedRequest(HTTPRequest(method: parts.method, target: parts.target, headers: headers, body: parts.body))
        }

        mutating func receivedRequest() -> HTTPRequest {
            let parts = request(recorded: false)
            var headers = parts.headers
            if let type = parts.type { headers.add(name: "Content-Type", value: type) }
            return HTTPRequest(method: parts.method, target: parts.target, headers: headers, body: parts.body)
        }
    }

    private func cassette(_ name: String, count: Int, rules: MatchRules, generator: inout Generator) -> Cassette {
        Cassette(
            name: name, matching: rules,
            interactions: (0..<count).map { _ in
                Interaction(request: generator.recordedRequest(), response: RecordedResponse(status: 200))
            })
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func index_findsExactlyWhatPairwiseComparisonFinds(seed: UInt64) {
        // GIVEN two cassettes with different rules over the same small request alphabet
        var generator = Generator(random: SeededGenerator(seed: seed))
        let cassettes = [
            cassette("plain", count: 100, rules: MatchRules(), generator: &generator),
            cassette(
                "strict", count: 100,
                rules: MatchRules(
                    ignoredQueryParameters: ["_"], ignoredBodyFields: ["ts"],
                    headers: ["Accept", "Authorization"]), generator: &generator),
        ]
        var index = ReplayIndex()
        for (rank, cassette) in cassettes.enumerated() { index.add(cassette, rank: rank, options: ReplayOptions()) }
        var matchedSomething = 0
        for _ in 0..<300 {
            // WHEN a random request is looked up
            let request = generator.receivedRequest()
            let found = Set(
                index.candidates(for: request, parts: RequestParts(received: request)).flatMap { candidate in
                    index.groups[candidate.group].members.map { "\(candidate.cassette)/\($0)" }
                })
            // AND the engine's lookup (which skips parsing requests without query and body) finds the same groups
            #expect(
                Array(index.lookup(request, parts: RequestParts(received: request)))
                    == Array(index.candidates(for: request, parts: RequestParts(received: request))))
            // THEN the index returns exactly the interactions that match pairwise
            var expected = Set<String>()
            for (ordinal, cassette) in cassettes.enumerated() {
                for (position, interaction) in cassette.interactions.enumerated()
                where cassette.matching.matches(interaction.request, request) {
                    expected.insert("\(ordinal)/\(position)")
                }
            }
            #expect(found == expected, "\(request.method) \(request.target) \(request.headers.lines)")
            if !expected.isEmpty { matchedSomething += 1 }
        }
        // AND the alphabet is small enough that a good share of lookups hit
        #expect(matchedSomething > 20)
    }

    @Test(arguments: [UInt64(4), 5, 6])
    func lookupOfPlainRequests_findsWhatTheFullLookupFinds(seed: UInt64) {
        // GIVEN cassettes that compare no headers, so requests without query and body skip parsing
        var generator = Generator(random: SeededGenerator(seed: seed))
        var index = ReplayIndex()
        index.add(cassette("plain", count: 150, rules: MatchRules(), generator: &generator), rank: 0, options: ReplayOptions())
        index.add(
            cassette(
                "ignoring", count: 150, rules: MatchRules(ignoredQueryParameters: ["_", "x"], ignoredBodyFields: ["ts"]),
                generator: &generator), rank: 1, options: ReplayOptions())
        var plainHits = 0
        for _ in 0..<400 {
            // WHEN a request is looked up both ways
            let received = generator.receivedRequest()
            let request = HTTPRequest(
                method: received.method, target: generator.chance(50) ? RequestParts.split(received.target).path.description : received.target,
                headers: received.headers, body: received.method == "GET" ? Data() : received.body)
            let full = Array(index.candidates(for: request, parts: RequestParts(received: request)))
            // THEN both find the same groups in the same order
            #expect(Array(index.lookup(request, parts: RequestParts(received: request))) == full, "\(request.method) \(request.target)")
            if !request.target.contains("?"), request.body.isEmpty, !full.isEmpty { plainHits += 1 }
        }
        // AND plain requests did match, so the fast path was exercised
        #expect(plainHits > 20)
    }

    @Test func index_groupsIdenticalRequestsInRecordedOrder() {
        // GIVEN the same request recorded three times between others
        let same = RecordedRequest(method: "GET", target: "/x?b=2&a=1")
        let cassette = Cassette(
            name: "c",
            interactions: [
                Interaction(request: same, response: RecordedResponse(status: 200)),
                Interaction(request: RecordedRequest(method: "GET", target: "/y"), response: RecordedResponse(status: 200)),
                Interaction(request: RecordedRequest(method: "GET", target: "/x?a=1&b=2"), response: RecordedResponse(status: 200)),
                Interaction(request: same, response: RecordedResponse(status: 200)),
            ])
        var index = ReplayIndex()
        index.add(cassette, rank: 0, options: ReplayOptions())
        // WHEN looked up THEN one group holds 0, 2 and 3 in order
        let request = HTTPRequest(method: "GET", target: "/x?a=1&b=2")
        let candidates = index.candidates(for: request, parts: RequestParts(received: request))
        #expect(candidates.map { index.groups[$0.group].members } == [[0, 2, 3]])
    }

    @Test func largeCassette_answersEveryInteractionByItsOwnRequest() {
        // GIVEN 5,000 distinct interactions, half GETs told apart by query, half POSTs told apart by JSON body
        let count = 5_000
        func request(_ index: Int) -> HTTPRequest {
            index.isMultiple(of: 2)
                ? HTTPRequest(method: "GET", target: "/users?since=\(index)&per_page=1")
                : HTTPRequest(
                    method: "POST", target: "/search", headers: ["Content-Type": "application/json"],
                    body: Data(#"{"page": 1, "query": "term \#(index)"}"#.utf8))
        }
        let interactions = (0..<count).map { index in
            Interaction(request: RecordedRequest(request(index)), response: RecordedResponse(status: 200, body: .json(["id": .number(JSONNumber(index))])))
        }
        let engine = ReplayEngine(cassettes: [Cassette(name: "large", interactions: interactions)])
        // WHEN each one's request is sent (in a scrambled order)
        var wrong = 0
        for step in 0..<count {
            let index = (step * 7_919) % count
            if engine.answer(request(index)).interaction?.index != index { wrong += 1 }
        }
        // THEN every lookup found its own interaction
        #expect(wrong == 0)
    }
}

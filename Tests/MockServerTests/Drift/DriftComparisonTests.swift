import Foundation
@testable import MockServer
import ServiceReplayShared
import ServiceReplayTestSupport
import Testing

/// The comparison `recorder drift` and the `swift test` drift mode share: what counts as a change, which
/// changes break a client, and how each is worded; and the pieces it stands on (shapes, event streams, the
/// request sent again, the probe).
@Suite struct DriftComparisonTests {
    /// A recorded answer of `text` under `contentType`.
    private static func recorded(
        _ text: String, status: Int = 200, contentType: String = "application/json",
        headers: HTTPHeaders = [:]
    ) -> RecordedResponse {
        var all = headers
        all.add(name: "Content-Type", value: contentType)
        return RecordedResponse(status: status, headers: all, body: RecordedBody(Data(text.utf8), contentType: contentType))
    }

    /// A live answer of `text` under `contentType` (none when `nil`).
    private static func live(_ text: String, status: Int = 200, contentType: String? = "application/json", headers: HTTPHeaders = [:]) -> HTTPResponse {
        var all = headers
        if let contentType { all.add(name: "Content-Type", value: contentType) }
        return HTTPResponse(status: status, headers: all, body: Data(text.utf8))
    }

    private static func changes(_ recorded: RecordedResponse, _ live: HTTPResponse, headerFields: [String] = []) -> [DriftChange] {
        DriftComparison.changes(recorded: recorded, live: live, headerFields: headerFields)
    }

    // MARK: status

    @Test func statusChangeWithinItsClass_isAdditive() {
        #expect(
            Self.changes(Self.recorded(#"{"id":1}"#), Self.live(#"{"id":1}"#, status: 201))
                == [DriftChange(.additive, "status", recorded: "200", live: "201", kind: "same class")])
        #expect(
            Self.changes(Self.recorded(#"{"id":1}"#, status: 404), Self.live(#"{"id":1}"#, status: 410))
                == [DriftChange(.additive, "status", recorded: "404", live: "410", kind: "same class")])
    }

    @Test func statusChangeAcrossClasses_isBreaking_andTheBodyIsNotCompared() {
        // The 404's body has another shape by nature: comparing it would only add noise.
        #expect(
            Self.changes(Self.recorded(#"{"id":1}"#), Self.live(#"{"message":"Not Found"}"#, status: 404))
                == [DriftChange(.breaking, "status", recorded: "200", live: "404", kind: "class 2xx → 4xx")])
        #expect(
            Self.changes(Self.recorded(#"{"id":1}"#, status: 299), Self.live(#"{"id":1}"#, status: 300))
                == [DriftChange(.breaking, "status", recorded: "299", live: "300", kind: "class 2xx → 3xx")])
    }

    @Test func sameStatus_sameShape_otherValues_isNoChange() {
        #expect(Self.changes(Self.recorded(#"{"id":1,"name":"ann","tags":["a"]}"#), Self.live(#"{"id":2,"name":"bob","tags":["b","c"]}"#)) == [])
    }

    // MARK: content type and headers

    @Test func contentType_comparedByEssence_aChangeIsBreaking_andStopsTheBodyComparison() {
        #expect(
            Self.changes(
                Self.recorded(#"{"id":1}"#, contentType: "application/json; charset=utf-8"),
                Self.live(#"{"id":"x"}"#, contentType: "Application/JSON")
            ).map(\.line)
                == ["breaking  $.id: number → string (type changed)"])
        #expect(
            Self.changes(Self.recorded(#"{"id":1}"#), Self.live("<html></html>", contentType: "text/html"))
                == [DriftChange(.breaking, "Content-Type", recorded: "application/json", live: "text/html", kind: "content type changed")])
        #expect(
            Self.changes(Self.recorded(#"{"id":1}"#), Self.live("", contentType: nil))
                == [DriftChange(.breaking, "Content-Type", recorded: "application/json", live: "none", kind: "content type changed")])
        let none = RecordedResponse(status: 200, headers: [:], body: .empty)
        #expect(
            Self.changes(none, Self.live("{}"))
                == [DriftChange(.breaking, "Content-Type", recorded: "none", live: "application/json", kind: "content type changed")])
    }

    @Test func namedHeaders_comparedByPresence_removedIsBreaking_addedAdditive() {
        let with = Self.recorded("{}", headers: ["Link": "<a>", "ETag": "1"])
        let without = Self.recorded("{}")
        // Removed: breaking; added: additive; present in both (another value, another case of the name): nothing.
        #expect(
            Self.changes(with, Self.live("{}", headers: ["ETag": "2"]), headerFields: ["Link", "etag"])
                == [DriftChange(.breaking, "header Link", recorded: "present", live: "missing", kind: "header removed")])
        #expect(
            Self.changes(without, Self.live("{}", headers: ["Link": "<b>"]), headerFields: ["Link"])
                == [DriftChange(.additive, "header Link", recorded: "missing", live: "present", kind: "header added")])
        #expect(Self.changes(without, Self.live("{}"), headerFields: ["Link"]) == [])
        // A header not named is never compared.
        #expect(Self.changes(with, Self.live("{}")) == [])
    }

    // MARK: JSON bodies

    @Test func valueTurnedNull_isBreaking_nullInBoth_isNoChange_nullTurnedValue_isAdditive() {
        let changes = Self.changes(
            Self.recorded(#"{"a":1,"b":null,"c":null,"d":[1,null]}"#),
            Self.live(#"{"a":null,"b":null,"c":"x","d":[null]}"#))
        #expect(
            changes == [
                DriftChange(.breaking, "$.a", recorded: "number", live: "null", kind: "null where the recording had a value"),
                DriftChange(.additive, "$.c", recorded: "null", live: "string", kind: "a value where the recording had null"),
            ])
        #expect(
            changes.map(\.line) == [
                "breaking  $.a: number → null (null where the recording had a value)",
                "additive  $.c: null → string (a value where the recording had null)",
            ])
    }

    @Test func typeChangedAndNull_atOnePath_areTwoChanges() {
        #expect(
            Self.changes(Self.recorded(#"{"l":[1]}"#), Self.live(#"{"l":["x",null]}"#)) == [
                DriftChange(.breaking, "$.l[*]", recorded: "number", live: "string", kind: "type changed"),
                DriftChange(.breaking, "$.l[*]", recorded: "number", live: "null", kind: "null where the recording had a value"),
            ])
        // A kind the recording already held at that path is no change.
        #expect(Self.changes(Self.recorded(#"{"l":[1,"x"]}"#), Self.live(#"{"l":["y"]}"#)) == [])
        #expect(
            Self.changes(Self.recorded(#"{"l":[1]}"#), Self.live(#"{"l":[1,"y"]}"#))
                == [DriftChange(.breaking, "$.l[*]", recorded: "number", live: "string or number", kind: "type changed")])
    }

    @Test func fieldsRemovedAndAdded_areReportedOnlyWhereTheOtherSideCanSay() {
        // A member removed from an object that is still an object, and from the elements of a list.
        #expect(
            Self.changes(Self.recorded(#"{"user":{"id":1}}"#), Self.live(#"{"user":{}}"#))
                == [DriftChange(.breaking, "$.user.id", recorded: "number", live: "missing", kind: "field removed")])
        #expect(
            Self.changes(Self.recorded(#"{"items":[{"id":1}]}"#), Self.live(#"{"items":[{}]}"#))
                == [DriftChange(.breaking, "$.items[*].id", recorded: "number", live: "missing", kind: "field removed")])
        // An object turned into a string is one change, not one per member.
        #expect(
            Self.changes(Self.recorded(#"{"user":{"id":1}}"#), Self.live(#"{"user":"x"}"#))
                == [DriftChange(.breaking, "$.user", recorded: "object", live: "string", kind: "type changed")])
        // A list turned into an object: the elements' shape is not known on the live side, nor its members on the recorded one.
        #expect(
            Self.changes(Self.recorded(#"{"items":[1]}"#), Self.live(#"{"items":{"x":1}}"#))
                == [DriftChange(.breaking, "$.items", recorded: "array", live: "object", kind: "type changed")])
        // An empty list says nothing about its elements, on either side.
        #expect(Self.changes(Self.recorded(#"{"items":[]}"#), Self.live(#"{"items":[{"id":1}]}"#)) == [])
        #expect(Self.changes(Self.recorded(#"{"items":[{"id":1}]}"#), Self.live(#"{"items":[]}"#)) == [])
        #expect(
            Self.changes(Self.recorded(#"{"id":1}"#), Self.live(#"{"id":1,"bio":"hi"}"#))
                == [DriftChange(.additive, "$.bio", recorded: "missing", live: "string", kind: "field added")])
    }

    @Test func jsonBodyNoLongerJSON_isBreaking_andABodyRecordedAsNonJSONIsNotCompared() {
        #expect(
            Self.changes(Self.recorded(#"{"id":1}"#), Self.live("<html>"))
                == [DriftChange(.breaking, "$", recorded: "object", live: "not JSON", kind: "body no longer JSON")])
        #expect(Self.changes(Self.recorded("plain", contentType: "text/plain"), Self.live("other", contentType: "text/plain")) == [])
    }

    @Test func theRootMissingOnOneSide_isReported() {
        #expect(
            DriftComparison.shapeChanges(recorded: JSONShape(1), live: JSONShape())
                == [DriftChange(.breaking, "$", recorded: "number", live: "missing", kind: "field removed")])
        #expect(
            DriftComparison.shapeChanges(recorded: JSONShape(), live: JSONShape("x"), prefix: "event e ")
                == [DriftChange(.additive, "event e $", recorded: "missing", live: "string", kind: "field added")])
    }

    // MARK: event streams

    @Test func eventNoLongerSent_isBreaking_aNewEventName_isAdditive_andEachEventsDataShapeIsCompared() {
        let recorded = "event: start\ndata: {\"id\":1}\n\nevent: delta\ndata: {\"text\":\"a\"}\n\n"
        let live = "event: delta\ndata: {\"text\":\"b\",\"n\":1}\n\nevent: finish\ndata: {}\n\n"
        let changes = Self.changes(Self.recorded(recorded, contentType: "text/event-stream"), Self.live(live, contentType: "text/event-stream"))
        #expect(
            changes.map(\.line) == [
                "additive  event delta $.n: missing → number (field added)",
                "additive  event finish: missing → sent (event added)",
                "breaking  event start: sent → missing (event no longer sent)",
            ])
        #expect(changes.map(\.severity) == [.additive, .additive, .breaking])
    }

    @Test func unnamedEvents_areMessages_andDataThatIsNotJSON_isText() {
        let changes = Self.changes(
            Self.recorded("data: hello\n\n", contentType: "text/event-stream"),
            Self.live("data: {\"a\":1}\n\n", contentType: "text/event-stream"))
        #expect(changes == [DriftChange(.breaking, "event message $", recorded: "text", live: "object", kind: "type changed")])
    }

    @Test func eventStreams_areReadAsAClientReadsThem() {
        let stream =
            ": comment\r\nevent: a\r\ndata:x\r\ndata:  two\r\n\r\nevent: b\n\ndata: {}\rretry: 5\r\rdata\n\nevent: ping\ndata\n\nevent: cut\ndata: never"
        // CR LF, LF and CR all end lines; one space after the colon is dropped, a second kept; data lines join
        // with a line feed; an event without data is not dispatched and its name does not carry over; a line
        // without a colon is a field with an empty value; the unterminated last event is not dispatched.
        func events(_ text: String) -> [[String]] {
            var parser = ServerSentEventParser()
            return parser.feed(Data(text.utf8)).map { [$0.type, $0.data] }
        }
        #expect(events(stream) == [["a", "x\n two"], ["message", "{}"], ["message", ""], ["ping", ""]])
        #expect(events("event: a\ndata: 1\n\ndata: 2\n\n").map(\.[0]) == ["a", "message"])
        #expect(events("") == [])
    }

    // MARK: shapes

    @Test func shapePaths_areJSONPaths_withOnePathForEveryElementOfAnArray() {
        let value = try? CassetteJSON(parsing: Data(#"{"ok_1":1,"odd-name":2,"a\"b\\c":3,"":4,"é":5,"list":[[true],[false]]}"#.utf8))
        let shape = JSONShape(value ?? .null)
        #expect(
            Set(shape.kinds.keys.map(\.description)) == [
                "$", "$.ok_1", #"$["odd-name"]"#, #"$["a\"b\\c"]"#, #"$[""]"#, "$.é", "$.list", "$.list[*]", "$.list[*][*]",
            ])
        let elements = JSONPath.root.appending(.key("list")).appending(.anyIndex)
        #expect(shape.kinds[elements.appending(.anyIndex)] == [.boolean])
        #expect(shape.arraysWithElements == [elements.parent!, elements])
    }

    @Test func kinds_sortInTheOrderTheReportNamesThem() {
        #expect(
            DriftComparison.describe([.null, .string, .number, .object, .text, .boolean, .array])
                == "object or array or string or number or boolean or null or text")
        #expect(DriftComparison.describe([.string]) == "string")
    }

    @Test func changeLine_padsTheSeverity_soThatPlacesLineUp() {
        #expect(DriftChange(.breaking, "$.a", recorded: "number", live: "string", kind: "type changed").line == "breaking  $.a: number → string (type changed)")
        #expect(DriftChange(.additive, "$.a", recorded: "missing", live: "string", kind: "field added").line == "additive  $.a: missing → string (field added)")
        #expect(DriftChange.unreachable("refused") == DriftChange(.breaking, "upstream", recorded: "answered", live: "unreachable", kind: "refused"))
        #expect(TransportFailure(kind: .reset, message: nil).driftReason == "the upstream did not answer (reset)")
        #expect(TransportFailure(kind: .reset, message: "gone").driftReason == "gone")
    }

    // MARK: the request sent again

    @Test func preparedRequest_fillsRedactedHeaders_keepsTheRestInOrder_andRefusesPlaceholdersItCannotFill() throws {
        let placeholder = Cassette.redactionPlaceholder
        var headers = HTTPHeaders()
        headers.add(name: "Accept", value: "application/json")
        headers.add(name: "Authorization", value: "Bearer \(placeholder)")
        headers.add(name: "X-Trace", value: "1")
        let request = RecordedRequest(method: "PUT", target: "/me?x=1", headers: headers, body: .text("hi"))
        let prepared = try DriftRequest.prepare(request, fills: ["authorization": "Bearer t"]).get()
        #expect(prepared.method == "PUT")
        #expect(prepared.target == "/me?x=1")
        #expect(prepared.body == Data("hi".utf8))
        #expect(
            prepared.headers.lines == [
                HTTPHeader(name: "Accept", value: "application/json"), HTTPHeader(name: "Authorization", value: "Bearer t"),
                HTTPHeader(name: "X-Trace", value: "1"),
            ])
        #expect(DriftRequest.prepare(request, fills: [:]) == .failure(.header("Authorization")))
        #expect(DriftRequest.prepare(RecordedRequest(method: "GET", target: "/u?token=\(placeholder)"), fills: [:]) == .failure(.target))
        #expect(DriftRequest.prepare(RecordedRequest(method: "POST", target: "/u", body: .text("k=\(placeholder)")), fills: [:]) == .failure(.body))
        #expect(DriftRequest.usedFills(["Authorization": "a", "X-Other": "b"], in: [request]) == ["authorization"])
        #expect(DriftRequest.usedFills(["X-Trace": "b"], in: [request]) == [])
    }

    // MARK: the probe

    /// Answers 503 with `Retry-After: VALUE` (the `retry` query) to every request, counting them.
    final class Busy: HTTPHandler {
        let requests = Lock(0)
        func reply(to request: HTTPRequest, context: HTTPRequestContext) -> HTTPReply {
            requests.withLock { $0 += 1 }
            let value = request.target.split(separator: "=").last.map(String.init) ?? ""
            let status = request.target.contains("429") ? 429 : 503
            return .response(status: status, headers: ["Retry-After": value], body: Data())
        }
    }

    @Test(arguments: [
        ("/503?retry=0", Duration.zero, 4, 3), ("/429?retry=0", .zero, 4, 3), ("/503?retry=2", .seconds(1), 1, 0),
        ("/503?retry=1", .seconds(1), 4, 3), ("/503?retry=soon", .seconds(60), 1, 0),
    ])
    func probe_waitsOutRetryAfter_atMostThreeTimes_andOnlyUpToItsLongestWait(target: String, longestWait: Duration, requests: Int, waits: Int) async throws {
        let handler = Busy()
        let server = HTTPServer(configuration: .init(), handler: handler)
        let base = try await server.start()
        let probe = DriftProbe(upstream: try Upstream(base), longestWait: longestWait)
        let told = Lock<[Duration]>([])
        let started = ContinuousClock.now
        let outcome = await probe.send(HTTPRequest(method: "GET", target: target, headers: [:], body: Data())) { wait in told.withLock { $0.append(wait) } }
        let elapsed = ContinuousClock.now - started
        await server.stop()
        // The last busy answer is what the probe returns, once its waits are spent.
        guard case .success(let response) = outcome else { Issue.record("no answer: \(outcome)"); return }
        #expect(response.status == (target.contains("429") ? 429 : 503))
        #expect(handler.requests.withLock { $0 } == requests)
        let waited = told.withLock { $0 }
        #expect(waited.count == waits)
        #expect(Set(waited).count <= 1)
        // Each wait told is waited out before the next send.
        #expect(elapsed >= (waited.first ?? .zero) * waits)
    }

    @Test func retryAfter_readsSecondsAndHTTPDates_asTheClientDoes() {
        let now = Date(timeIntervalSince1970: 784_111_774)  // Sun, 06 Nov 1994 08:49:34 GMT
        #expect(DriftProbe.retryAfter("0", now: now) == .zero)
        #expect(DriftProbe.retryAfter(" 2 ", now: now) == .seconds(2))
        #expect(DriftProbe.retryAfter("1.5", now: now) == .milliseconds(1500))
        #expect(DriftProbe.retryAfter("-1", now: now) == .zero)
        #expect(DriftProbe.retryAfter("Sun, 06 Nov 1994 08:49:44 GMT", now: now) == .seconds(10))
        #expect(DriftProbe.retryAfter("Sunday, 06-Nov-94 08:49:37 GMT", now: now) == .seconds(3))
        #expect(DriftProbe.retryAfter("Wed, 21 Oct 2015 07:28:00 GMT", now: Date(timeIntervalSince1970: 1_445_412_470)) == .seconds(10))
        #expect(DriftProbe.retryAfter("Sun, 06 Nov 1994 08:49:00 GMT", now: now) == .zero)
        #expect(DriftProbe.retryAfter("soon", now: now) == nil)
        #expect(DriftProbe.retryAfter(nil) == nil)
        #expect(DriftProbe.retries == 3)
    }

    @Test func probe_waitsOutARetryAfterDate_thenComparesTheNextAnswer() async throws {
        // GIVEN an upstream that first asks to come back at an HTTP-date (whole seconds) about two seconds
        // ahead, noting when the next request arrives, then answers
        let formatter = PatternDateFormatter(pattern: "EEE, dd MMM yyyy HH:mm:ss 'GMT'")
        let comeBack = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 2).rounded(.down))
        let arrivals = Lock<[Date]>([])
        let server = HTTPServer { _ in
            let count = arrivals.withLock {
                $0.append(Date()); return $0.count
            }
            guard count > 1 else { return .response(status: 503, headers: ["Retry-After": formatter.string(from: comeBack)], body: Data()) }
            return .response(status: 200, headers: ["Content-Type": "text/plain"], body: Data("ok".utf8))
        }
        let base = try await server.start()
        let probe = DriftProbe(upstream: try Upstream(base), longestWait: .seconds(10))
        let told = Lock<[Duration]>([])
        // WHEN the probe sends a request
        let outcome = await probe.send(HTTPRequest(method: "GET", target: "/x", headers: [:], body: Data())) { wait in told.withLock { $0.append(wait) } }
        await server.stop()
        // THEN it waited once, sent again no earlier than the date (both clocks are this machine's), and returns
        // the answer after it
        guard case .success(let response) = outcome else { Issue.record("no answer: \(outcome)"); return }
        #expect(response.status == 200)
        #expect(told.withLock { $0.count } == 1)
        let times = arrivals.withLock { $0 }
        #expect(times.count == 2)
        #expect(times.last.map { $0 >= comeBack } == true, "sent again at \(String(describing: times.last)), before \(comeBack)")
    }

    @Test func probe_waitsAMinuteAtMostByDefault() throws {
        #expect(DriftProbe(upstream: try Upstream("http://127.0.0.1:9")).longestWait == .seconds(60))
    }

    @Test func probe_reportsAnUpstreamThatCannotBeReached_asAFailure() async throws {
        let closed = try ReservedPort()
        let probe = DriftProbe(upstream: try Upstream(closed.baseURL))
        let outcome = await probe.send(HTTPRequest(method: "GET", target: "/", headers: [:], body: Data()))
        guard case .failure(let failure) = outcome else { Issue.record("an answer from a closed port: \(outcome)"); return }
        #expect(failure.kind == .refused)
    }
}

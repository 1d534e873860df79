import Foundation
@testable import MockServer
import Testing

/// When several recordings match a request, the ones whose headers agree with it most answer it, and recorded
/// order decides only among them; volatile and redacted headers never count (``DecidingHeaders``).
@Suite struct MatchDecidingHeadersTests {
    /// `GET /doc` recorded with `headers`, answering `text`.
    static func doc(_ headers: HTTPHeaders, _ text: String) -> Interaction {
        var interaction = Interaction.stub("GET", "/doc", text: text)
        interaction.request = RecordedRequest(method: "GET", target: "/doc", headers: headers)
        return interaction
    }

    static func engine(_ interactions: [Interaction], afterLast: AfterLastPolicy? = nil) -> ReplayEngine {
        ReplayEngine(cassettes: [Cassette(name: "c", matching: MatchRules(afterLast: afterLast), interactions: interactions)])
    }

    static func texts(_ engine: ReplayEngine, _ requests: [HTTPHeaders]) -> [String] {
        requests.map { headers in
            let answer = engine.answer(HTTPRequest(method: "GET", target: "/doc", headers: headers))
            return answer.response.map { String(decoding: $0.body, as: UTF8.self) } ?? "404"
        }
    }

    @Test func azureRange_picksTheRecordedChunk_inAnyOrder_andAnUnrecordedOneIsANearMissNamingIt() {
        // GIVEN two chunks of a blob recorded with x-ms-range, as the Azure SDK reads them
        let engine = Self.engine([Self.doc(["x-ms-range": "bytes=0-9"], "first"), Self.doc(["x-ms-range": "bytes=10-19"], "second")])
        // WHEN they are asked for the other way round, then a chunk never recorded
        let texts = Self.texts(engine, [["x-ms-range": "bytes=10-19"], ["x-ms-range": "bytes=0-9"]])
        let unrecorded = engine.answer(HTTPRequest(method: "GET", target: "/doc", headers: ["x-ms-range": "bytes=20-29"]))
        // THEN each chunk gets its own bytes, and the other is not served someone else's range
        #expect(texts == ["second", "first"])
        #expect(unrecorded.status == 404)
        #expect(unrecorded.nearMiss?.differences.map(\.location) == ["header x-ms-range"])
    }

    @Test func acceptPicksTheAnswer_andRecordedOrderDecidesAmongThoseThatAgree() {
        // GIVEN JSON, XML, then JSON again recorded for one URL
        let engine = Self.engine([
            Self.doc(["Accept": "application/json"], "json 1"), Self.doc(["Accept": "application/xml"], "xml"),
            Self.doc(["Accept": "application/json"], "json 2"),
        ])
        // WHEN XML is asked first, then JSON three times
        let json: HTTPHeaders = ["Accept": "application/json"]
        let texts = Self.texts(engine, [["Accept": "application/xml"], json, json, json])
        // THEN XML gets its answer, and JSON its own two in order, then the last again
        #expect(texts == ["xml", "json 1", "json 2", "json 2"])
    }

    @Test func volatileHeaders_neverPick_soIdenticalRequestsReplayInRecordedOrder() {
        // GIVEN a job polled twice, the requests differing only in date, client and request id
        let engine = Self.engine([
            Self.doc(["Date": "Mon, 30 Nov 2026 10:00:00 GMT", "User-Agent": "app/1", "X-Request-ID": "a1"], "pending"),
            Self.doc(["Date": "Mon, 30 Nov 2026 10:00:05 GMT", "User-Agent": "app/2", "X-Request-ID": "b2"], "done"),
        ])
        // WHEN it is polled with the second recording's values
        let second: HTTPHeaders = ["Date": "Mon, 30 Nov 2026 10:00:05 GMT", "User-Agent": "app/2", "X-Request-ID": "b2"]
        // THEN the answers still come in recorded order
        #expect(Self.texts(engine, [second, second]) == ["pending", "done"])
    }

    @Test func redactedHeader_neverPicks() {
        // GIVEN a request recorded with a redacted key, then the same without it
        let engine = Self.engine([Self.doc(["X-Key": "<redacted>"], "first"), Self.doc([:], "second")])
        // WHEN it is asked without the key THEN recorded order decides, not agreement on the key's absence
        #expect(Self.texts(engine, [[:], [:]]) == ["first", "second"])
        // AND so in the spelling URLs hold it
        let inURL = Self.engine([Self.doc(["X-Next": "/o?sig=%3Credacted%3E"], "first"), Self.doc([:], "second")])
        #expect(Self.texts(inURL, [[:], [:]]) == ["first", "second"])
    }

    @Test func missingHeader_agreesWithARecordingThatLackedIt() {
        // GIVEN one recording with Accept-Language and one without
        let engine = Self.engine([Self.doc(["Accept-Language": "fr"], "bonjour"), Self.doc([:], "hello")])
        // WHEN asked without it, then with it THEN each gets the recording that agrees
        #expect(Self.texts(engine, [[:], ["Accept-Language": "fr"]]) == ["hello", "bonjour"])
    }

    @Test func noRecordingAgrees_allAnswerInRecordedOrder() {
        // GIVEN JSON then XML recorded
        let engine = Self.engine([Self.doc(["Accept": "application/json"], "json"), Self.doc(["Accept": "application/xml"], "xml")])
        // WHEN asked with an Accept neither carried THEN recorded order decides, as before
        let html: HTTPHeaders = ["Accept": "text/html"]
        #expect(Self.texts(engine, [html, html, html]) == ["json", "xml", "xml"])
    }

    @Test func cyclePolicy_restartsOnlyTheRecordingsThatAgree() {
        // GIVEN two JSON answers and one XML answer, cycling after the last
        let engine = Self.engine(
            [
                Self.doc(["Accept": "application/json"], "json 1"), Self.doc(["Accept": "application/xml"], "xml"),
                Self.doc(["Accept": "application/json"], "json 2"),
            ], afterLast: .cycle)
        let json: HTTPHeaders = ["Accept": "application/json"]
        // WHEN JSON is asked four times, with XML in between THEN JSON cycles over its own two
        #expect(Self.texts(engine, [json, json, ["Accept": "application/xml"], json, json]) == ["json 1", "json 2", "xml", "json 1", "json 2"])
    }

    @Test func failPolicy_namesOnlyTheRecordingsThatAgree() {
        // GIVEN one JSON and one XML answer, failing after the last
        let engine = Self.engine(
            [Self.doc(["Accept": "application/json"], "json"), Self.doc(["Accept": "application/xml"], "xml")], afterLast: .fail)
        let json = HTTPRequest(method: "GET", target: "/doc", headers: ["Accept": "application/json"])
        // WHEN JSON is asked twice THEN the second is used up, naming the JSON recording alone
        #expect(engine.answer(json).status == 200)
        let usedUp = engine.answer(json)
        #expect(usedUp.status == 404)
        #expect(usedUp.nearMiss?.usedUp.map(\.index) == [0])
    }

    @Test func resetSequences_startsTheAgreeingRecordingsOver() {
        // GIVEN two JSON answers and one XML answer, both JSON ones served
        let engine = Self.engine([
            Self.doc(["Accept": "application/json"], "json 1"), Self.doc(["Accept": "application/xml"], "xml"),
            Self.doc(["Accept": "application/json"], "json 2"),
        ])
        let json: HTTPHeaders = ["Accept": "application/json"]
        _ = Self.texts(engine, [json, json])
        // WHEN the sequences are reset THEN JSON starts over from its first answer
        engine.resetSequences()
        #expect(Self.texts(engine, [json]) == ["json 1"])
    }

    @Test func lint_recordingsThatDifferInADecidingHeader_areNotDuplicates() {
        // GIVEN the same answer recorded for JSON, XML, then JSON again
        let cassette = Cassette(
            name: "c",
            interactions: [
                Self.doc(["Accept": "application/json"], "same"), Self.doc(["Accept": "application/xml"], "same"),
                Self.doc(["Accept": "application/json"], "same"),
            ])
        // THEN only the repeated JSON one is redundant: dropping the XML one would change what XML gets
        #expect(CassetteLinter.duplicates(in: cassette) == [CassetteLinter.Duplicate(index: 2, original: 0)])
    }
}

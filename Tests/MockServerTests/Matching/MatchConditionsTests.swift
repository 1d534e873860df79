import Foundation
@testable import MockServer
import Testing

/// `Range`, `If-Range`, `If-None-Match` and `If-Modified-Since` are compared whenever a recording carried them,
/// and such a recording answers before one that did not: ranged reads and conditional requests get the
/// recording made for them whatever order they come in.
@Suite struct MatchConditionsTests {
    static func ranged(_ range: String, _ text: String) -> Interaction {
        var interaction = Interaction.stub("GET", "/object", status: 206, text: text)
        interaction.request = RecordedRequest(method: "GET", target: "/object", headers: ["Range": range])
        return interaction
    }

    static func get(_ target: String, _ headers: HTTPHeaders = [:]) -> HTTPRequest {
        HTTPRequest(method: "GET", target: target, headers: headers)
    }

    static func text(_ answer: ReplayAnswer) -> String {
        answer.response.map { String(decoding: $0.body, as: UTF8.self) } ?? "(no response)"
    }

    @Test func rangedReads_getTheirOwnRange_inAnyOrder() {
        // GIVEN three ranges of one object recorded in order
        let engine = ReplayEngine(cassettes: [
            Cassette(
                name: "c",
                interactions: [
                    Self.ranged("bytes=0-9", "abcdefghij"), Self.ranged("bytes=10-19", "klmnopqrst"), Self.ranged("bytes=20-25", "uvwxyz"),
                ])
        ])
        // WHEN they are asked for in another order
        let bodies = ["bytes=20-25", "bytes=0-9", "bytes=10-19"].map { Self.text(engine.answer(Self.get("/object", ["Range": $0]))) }
        // THEN each gets the bytes of its own range
        #expect(bodies == ["uvwxyz", "abcdefghij", "klmnopqrst"])
    }

    @Test func twoRecordingsWithDifferentIfRangeValidators_eachAnswerTheirOwn_inAnyOrder() {
        // GIVEN one range recorded under two versions of the object (If-Range "v1", then "v2")
        func ranged(_ validator: String, _ text: String) -> Interaction {
            var interaction = Interaction.stub("GET", "/object", status: 206, text: text)
            interaction.request = RecordedRequest(method: "GET", target: "/object", headers: ["Range": "bytes=0-1", "If-Range": validator])
            return interaction
        }
        let engine = ReplayEngine(cassettes: [Cassette(name: "c", interactions: [ranged("\"v1\"", "ab"), ranged("\"v2\"", "AB")])])
        // WHEN asked with v2 first, then v1
        let bodies = ["\"v2\"", "\"v1\""].map { Self.text(engine.answer(Self.get("/object", ["Range": "bytes=0-1", "If-Range": $0]))) }
        // THEN each version gets its own bytes
        #expect(bodies == ["AB", "ab"])
    }

    @Test func recordedRange_answersBeforeAWholeBodyRecordedEarlier() {
        // GIVEN a whole-body GET recorded before a ranged GET of the same object
        let engine = ReplayEngine(cassettes: [
            Cassette(
                name: "c",
                interactions: [
                    .stub("GET", "/object", text: "abcdefghijklmnopqrstuvwxyz"), Self.ranged("bytes=0-9", "abcdefghij"),
                ])
        ])
        // WHEN the range is asked for first, then the whole body, then the range again
        let ranged = engine.answer(Self.get("/object", ["Range": "bytes=0-9"]))
        let whole = engine.answer(Self.get("/object"))
        let again = engine.answer(Self.get("/object", ["Range": "bytes=0-9"]))
        // THEN the range gets its 206 both times (repeated, not the unused whole body) and the plain GET the 200
        #expect(ranged.status == 206 && Self.text(ranged) == "abcdefghij")
        #expect(whole.status == 200 && Self.text(whole) == "abcdefghijklmnopqrstuvwxyz")
        #expect(again.status == 206 && again.isRepeat)
    }

    @Test func rangeNeverRecordedForTheObject_getsTheWholeBody() {
        // GIVEN only a whole-body GET (a cassette recorded before ranges were compared, say)
        let engine = ReplayEngine(cassettes: [Cassette(name: "c", interactions: [.stub("GET", "/object", text: "whole")])])
        // WHEN a range is asked for THEN the whole body answers, as HTTP allows
        let answer = engine.answer(Self.get("/object", ["Range": "bytes=0-9"]))
        #expect(answer.status == 200 && Self.text(answer) == "whole")
    }

    @Test func unrecordedRange_fallsBackToTheWholeBody_whenOneWasRecorded() {
        // GIVEN a whole body and one range recorded
        let engine = ReplayEngine(cassettes: [
            Cassette(
                name: "c",
                interactions: [
                    .stub("GET", "/object", text: "whole"), Self.ranged("bytes=0-9", "abcdefghij"),
                ])
        ])
        // WHEN another range is asked for THEN the whole body answers it, never the other range's bytes
        let answer = engine.answer(Self.get("/object", ["Range": "bytes=20-25"]))
        #expect(answer.status == 200 && Self.text(answer) == "whole")
    }

    @Test func unrecordedRange_ofAnObjectOnlyReadInRanges_isANearMissNamingTheRange() {
        // GIVEN one range recorded, and no whole body
        let engine = ReplayEngine(cassettes: [Cassette(name: "c", interactions: [Self.ranged("bytes=0-9", "abcdefghij")])])
        // WHEN another range is asked for, and then no range at all
        let other = engine.answer(Self.get("/object", ["Range": "bytes=20-25"]))
        let whole = engine.answer(Self.get("/object"))
        // THEN neither is answered, and the reports name the recorded range
        #expect(other.status == 404 && whole.status == 404)
        #expect(other.nearMiss?.differences.map(\.description) == [#"header Range: recorded "bytes=0-9", received "bytes=20-25""#])
        #expect(whole.nearMiss?.differences.map(\.description) == [#"header Range: recorded "bytes=0-9", received nothing"#])
    }

    @Test func otherIfRange_isANearMissNamingIt() {
        // GIVEN a range recorded with the If-Range date its client held
        var interaction = Self.ranged("bytes=0-9", "abcdefghij")
        interaction.request.headers.add(name: "If-Range", value: "Wed, 25 Nov 2026 10:00:00 GMT")
        let engine = ReplayEngine(cassettes: [Cassette(name: "c", interactions: [interaction])])
        // WHEN the same range is asked for with another date THEN it is unmatched, the report naming both dates
        let answer = engine.answer(Self.get("/object", ["Range": "bytes=0-9", "If-Range": "Thu, 26 Nov 2026 10:00:00 GMT"]))
        #expect(
            answer.nearMiss?.differences.map(\.description)
                == [#"header If-Range: recorded "Wed, 25 Nov 2026 10:00:00 GMT", received "Thu, 26 Nov 2026 10:00:00 GMT""#])
    }

    @Test func unconditionalRequest_toARecordedConditionalOne_isANearMissSayingSo() {
        var notModified = Interaction.stub("GET", "/etag", status: 304)
        notModified.request = RecordedRequest(method: "GET", target: "/etag", headers: ["If-Modified-Since": "Tue, 01 Dec 2026 00:00:00 GMT"])
        let engine = ReplayEngine(cassettes: [Cassette(name: "c", interactions: [notModified])])
        let answer = engine.answer(Self.get("/etag"))
        #expect(
            answer.nearMiss?.differences.map(\.description)
                == ["conditional request: recorded with If-None-Match or If-Modified-Since, received without either"])
    }

    @Test func conditionalAndUnconditionalRequests_getTheirOwnRecording_inAnyOrder() {
        // GIVEN an unconditional GET recorded (200 with an ETag), then a conditional one (304)
        var notModified = Interaction.stub("GET", "/etag", status: 304)
        notModified.request = RecordedRequest(method: "GET", target: "/etag", headers: ["If-None-Match": "\"v1\""])
        let engine = ReplayEngine(cassettes: [
            Cassette(
                name: "c",
                interactions: [
                    .stub("GET", "/etag", text: "body", headers: ["ETag": "\"v1\""]), notModified,
                ])
        ])
        // WHEN the conditional request comes first, then the unconditional one, then both again
        let statuses = [["If-None-Match": "\"v1\""], [:], [:], ["If-Modified-Since": "Tue, 01 Dec 2026 00:00:00 GMT"]]
            .map { (headers: HTTPHeaders) in engine.answer(Self.get("/etag", headers)).status ?? -1 }
        // THEN each kind gets its own recording every time
        #expect(statuses == [304, 200, 200, 304])
    }
}

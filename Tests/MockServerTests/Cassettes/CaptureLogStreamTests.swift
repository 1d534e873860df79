import Foundation
@testable import MockServer
import Testing

/// Streams in the capture log: logged part by part while open, assembled when they end, and never lost when
/// the recording stops or is killed first.
@Suite struct CaptureLogStreamTests {
    static let head = Interaction(
        request: RecordedRequest(method: "GET", target: "/events"),
        response: RecordedResponse(
            status: 200, headers: ["Content-Type": "text/event-stream"],
            body: .stream(RecordedStream([]))))
    static let parts = (1...3).map { RecordedStream.Part(offsetMs: $0 * 10, .event(ServerSentEventFields(id: "\($0)", data: "event \($0)"))) }

    static func streamed(_ parts: [RecordedStream.Part], _ ending: RecordedStream.Ending, durationMs: Int? = nil) -> Interaction {
        var interaction = head
        interaction.outcome = .response(
            RecordedResponse(
                status: 200, headers: ["Content-Type": "text/event-stream"],
                body: .stream(RecordedStream(parts, ending: ending))))
        interaction.durationMs = durationMs
        return interaction
    }

    @Test func openStream_isReadFromTheLogAsUnfinished_survivesASave_andJoinsTheCassetteWhenItEnds() throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("events.json")
        let log = CaptureLog.url(for: file)
        // GIVEN a recording with one exchange and a stream whose parts were logged in two arrivals
        let (tape, _) = try CassetteTape.open(RecordingOptions(upstream: try Upstream("http://127.0.0.1:1"), file: file), appending: false)
        let plain = Interaction.stub("GET", "/a", json: 1)
        _ = tape.append(plain)
        let stream = tape.beginStream(Self.head)
        tape.appendStream(stream, parts: Array(Self.parts[..<1]))
        tape.appendStream(stream, parts: Array(Self.parts[1...]))
        // WHEN a reader loads the cassette (as after a kill: only the log exists)
        // THEN it sees the exchange, then the stream as far as it came, unfinished
        #expect(try Cassette.load(from: file).interactions == [plain, Self.streamed(Self.parts, .unfinished)])
        #expect(tape.cassette.interactions == [plain])
        // WHEN the cassette is saved while the stream is open
        try tape.flush()
        // THEN the file holds the exchange, the log stays for the stream, and readers still see both
        #expect(try Cassette(jsonData: Data(contentsOf: file), source: "events.json").interactions == [plain])
        #expect(FileManager.default.fileExists(atPath: log.path))
        #expect(try Cassette.load(from: file).interactions == [plain, Self.streamed(Self.parts, .unfinished)])
        // WHEN the stream ends
        let ended = try #require(tape.endStream(stream, ending: .complete, durationMs: 42))
        // THEN it is the next interaction, its parts read back from the log, for readers and the tape alike
        let complete = Self.streamed(Self.parts, .complete, durationMs: 42)
        #expect(ended.index == 1)
        #expect(ended.interaction == complete)
        #expect(ended.saveError == nil)
        #expect(try Cassette.load(from: file).interactions == [plain, complete])
        // AND the next save writes it into the file and removes the log
        try tape.flush()
        #expect(try Cassette(jsonData: Data(contentsOf: file), source: "events.json").interactions == [plain, complete])
        #expect(!FileManager.default.fileExists(atPath: log.path))
    }

    @Test func recordingKeptInMemory_assemblesTheStreamFromMemory() throws {
        // GIVEN a recording without a file
        let (tape, _) = try CassetteTape.open(RecordingOptions(upstream: try Upstream("http://127.0.0.1:1")), appending: false)
        let stream = tape.beginStream(Self.head)
        tape.appendStream(stream, parts: Self.parts)
        // WHEN the upstream broke the stream
        let ended = try #require(tape.endStream(stream, ending: .broken, durationMs: 7))
        // THEN the cassette holds what arrived, marked broken
        #expect(tape.cassette.interactions == [Self.streamed(Self.parts, .broken, durationMs: 7)])
        #expect(ended.index == 0)
    }

    @Test func logOfVersion1_andATornStreamLine_areReadUpToWhatIsWhole() throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("events.json")
        let cassette = Cassette(name: "events", upstream: "http://127.0.0.1:1")
        // GIVEN a log written by the first version, with one interaction
        let plain = Interaction.stub("GET", "/a", json: 1)
        var header = String(decoding: CaptureLog.headerLine(base: "none", cassette: cassette), as: UTF8.self)
        header = header.replacingOccurrences(of: #""version":2"#, with: #""version":1"#)
        try Data(Array(header.utf8) + CaptureLog.interactionLine(plain)).write(to: CaptureLog.url(for: file))
        // THEN it is read
        #expect(try Cassette.load(from: file).interactions == [plain])
        // GIVEN a current log whose stream's last line is torn
        var lines = CaptureLog.headerLine(base: "none", cassette: cassette) + CaptureLog.streamHeadLine(0, head: Self.head)
        lines += CaptureLog.streamPartsLine(0, parts: Array(Self.parts[..<2]))
        lines += CaptureLog.streamPartsLine(0, parts: Array(Self.parts[2...])).dropLast(5)
        try Data(lines).write(to: CaptureLog.url(for: file))
        // THEN the stream holds the whole lines' parts, unfinished
        #expect(try Cassette.load(from: file).interactions == [Self.streamed(Array(Self.parts[..<2]), .unfinished)])
    }

    @Test func partsWhoseOffsetsGoBackAcrossArrivals_endTheReadingThere() throws {
        // GIVEN a log whose second arrival for a stream starts before the first one's last part (found by fuzzing:
        // such parts could not be written back as one cassette stream)
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("events.json")
        var lines = CaptureLog.headerLine(base: "none", cassette: Cassette(name: "events")) + CaptureLog.streamHeadLine(0, head: Self.head)
        lines += CaptureLog.streamPartsLine(0, parts: [Self.parts[1]])
        lines += CaptureLog.streamPartsLine(0, parts: [Self.parts[0]])
        lines += CaptureLog.streamEndLine(0, ending: .complete, durationMs: 1)
        try Data(lines).write(to: CaptureLog.url(for: file))
        // WHEN it is read THEN the stream holds the parts before that line, unfinished, and survives the format
        let cassette = try Cassette.load(from: file)
        #expect(cassette.interactions == [Self.streamed([Self.parts[1]], .unfinished)])
        #expect(try Cassette(jsonData: cassette.encoded(), source: "events.json") == cassette)
    }
}

import Foundation
@testable import MockServer
import Testing

/// Requests that differ only where the default match used to look away, captured through the built `recorder`
/// and replayed offline in another order: each must get its own recording.
@Suite struct CaptureReplayMatchingTests {
    static let alphabet = Data("abcdefghijklmnopqrstuvwxyz".utf8)

    /// An upstream like httpbin's `/range/26` (a single `bytes=A-B` range gets a 206 of those bytes) and
    /// `/etag/v1` (a request with `If-None-Match: "v1"` gets a 304); like Azure Blob Storage, `/container/blob`
    /// reads its range from `x-ms-range`; `/greeting` answers in the language `Accept-Language` asks for; a POST
    /// echoes its body's bytes. Anything else gets a 200.
    static func reply(to request: HTTPRequest) -> HTTPReply {
        if request.path == "/download" {
            // A release download: a redirect to the object, presigned.
            let presigned = "/bucket/app.zip?X-Amz-Date=20261205T000000Z&X-Amz-Expires=300&X-Amz-Signature=9f2c4e6a8b0d"
            return .response(status: 302, headers: ["Location": presigned], body: Data())
        }
        if request.method == "POST" {
            return .response(status: 201, headers: ["Content-Type": "application/octet-stream"], body: request.body)
        }
        switch request.path {
        case "/greeting":
            let french = request.headers["Accept-Language"] == "fr"
            return .response(status: 200, headers: ["Content-Type": "text/plain"], body: Data((french ? "bonjour" : "hello").utf8))
        case "/range/26", "/container/blob":
            let rangeHeader = request.path == "/range/26" ? "Range" : "x-ms-range"
            if let range = request.headers[rangeHeader], range.hasPrefix("bytes=") {
                let bounds = range.dropFirst("bytes=".count).split(separator: "-").compactMap { Int($0) }
                if bounds.count == 2, bounds[0] <= bounds[1], bounds[1] < alphabet.count {
                    return .response(
                        status: 206,
                        headers: [
                            "Content-Type": "application/octet-stream",
                            "Content-Range": "bytes \(bounds[0])-\(bounds[1])/\(alphabet.count)",
                        ],
                        body: alphabet.subdata(in: bounds[0]..<(bounds[1] + 1)))
                }
            }
            return .response(status: 200, headers: ["Content-Type": "application/octet-stream"], body: alphabet)
        case "/etag/v1":
            if request.headers["If-None-Match"] == "\"v1\"" { return .response(status: 304, headers: ["ETag": "\"v1\""], body: Data()) }
            return .response(status: 200, headers: ["ETag": "\"v1\"", "Content-Type": "text/plain"], body: Data("fresh".utf8))
        default:
            return .response(status: 200, headers: ["Content-Type": "text/plain"], body: Data("object bytes".utf8))
        }
    }

    /// One request as sent through capture and replay.
    struct Outgoing: Sendable {
        var method = "GET"
        let target: String
        let headers: [(String, String)]
        var body = Data()
    }

    /// Captures `captured` (in order) from the upstream above through `recorder capture`, then replays the
    /// cassette with `recorder replay --strict` and sends `replayed` (in order): what each side got.
    /// With `matching`, the captured cassette's `matching` block is set to it before the replay, as a user edits it;
    /// `keep` is shown the cassette as captured.
    private func captureThenReplay(
        _ captured: [Outgoing], _ replayed: [Outgoing], matching: MatchRules? = nil, keep: (Cassette) throws -> Void = { _ in }
    ) async throws -> (captured: [SeenResponse], replayed: [SeenResponse]) {
        let upstream = HTTPServer(configuration: .init()) { request in Self.reply(to: request) }
        let base = try await upstream.start()
        let workspace = try Workspace()
        defer { workspace.remove() }
        let http = LoopbackHTTP()
        defer { http.close() }
        var first: [SeenResponse] = []
        do {
            let capture = try RunningRecorder(["capture", "--upstream", base.absoluteString, "--out", "Recordings/api.json"], in: workspace.folder)
            let proxy = try await capture.address(after: "Listening on")
            for request in captured {
                first.append(try await http.send(request.method, request.target, to: proxy, headers: request.headers, body: request.body))
            }
            let run = try await capture.stop()
            #expect(run.status == 0, "\(run.stderr)")
        } catch {
            await upstream.stop()
            throw error
        }
        // Offline: the upstream is gone before the replay starts.
        await upstream.stop()
        let file = workspace.folder.appendingPathComponent("Recordings/api.json")
        try keep(try Cassette.load(from: file))
        if let matching {
            var cassette = try Cassette.load(from: file)
            cassette.matching = matching
            try cassette.encoded().write(to: file)
        }
        let replay = try RunningRecorder(["replay", "Recordings/api.json", "--strict"], in: workspace.folder)
        let replayBase = try await replay.address(after: "Replaying")
        var second: [SeenResponse] = []
        for request in replayed {
            second.append(try await http.send(request.method, request.target, to: replayBase, headers: request.headers, body: request.body))
        }
        let run = try await replay.stop()
        #expect(run.status == 0, "\(run.stderr)")
        return (first, second)
    }

    @Test func rangedReads_capturedInOneOrder_replayInAnother_eachWithItsOwnBytes() async throws {
        // GIVEN bytes 0-9 then 10-19 of /range/26 captured
        let low = Outgoing(target: "/range/26", headers: [("Range", "bytes=0-9")])
        let high = Outgoing(target: "/range/26", headers: [("Range", "bytes=10-19")])
        // WHEN they are replayed offline asked for the other way round
        let (captured, replayed) = try await captureThenReplay([low, high], [high, low])
        // THEN each gets the bytes (and Content-Range) captured for its own range
        #expect(captured.map(\.status) == [206, 206])
        #expect(captured[0].body == Data("abcdefghij".utf8) && captured[1].body == Data("klmnopqrst".utf8))
        #expect(replayed.map(\.exchangeOnly) == [captured[1].exchangeOnly, captured[0].exchangeOnly])
        #expect(replayed.first?.headers["Content-Range"] == "bytes 10-19/26")
    }

    @Test func azureRangedReads_capturedInOneOrder_replayInAnother_eachWithItsOwnBytes() async throws {
        // GIVEN bytes 0-9 then 10-19 of a blob captured, ranged with x-ms-range as the Azure SDK reads chunks
        let low = Outgoing(target: "/container/blob", headers: [("x-ms-range", "bytes=0-9"), ("x-ms-version", "2025-01-05")])
        let high = Outgoing(target: "/container/blob", headers: [("x-ms-range", "bytes=10-19"), ("x-ms-version", "2025-01-05")])
        // WHEN they are replayed offline asked for the other way round, twice
        let (captured, replayed) = try await captureThenReplay([low, high], [high, low, high, low])
        // THEN each gets the bytes (and Content-Range) captured for its own range, never the other chunk's
        #expect(captured.map(\.status) == [206, 206])
        #expect(captured[0].body == Data("abcdefghij".utf8) && captured[1].body == Data("klmnopqrst".utf8))
        let expected = [captured[1], captured[0], captured[1], captured[0]].map(\.exchangeOnly)
        #expect(replayed.map(\.exchangeOnly) == expected)
    }

    @Test func headerThatPickedTheAnswer_picksItOnReplay_inAnyOrder() async throws {
        // GIVEN /greeting captured in English, then in French (Accept-Language told them apart)
        let english = Outgoing(target: "/greeting", headers: [("Accept-Language", "en")])
        let french = Outgoing(target: "/greeting", headers: [("Accept-Language", "fr")])
        // WHEN they are replayed French first, then English, then French again
        let (captured, replayed) = try await captureThenReplay([english, french], [french, english, french])
        // THEN each language gets its own answer, the third as a repeat of the French one
        #expect(captured.map { String(decoding: $0.body, as: UTF8.self) } == ["hello", "bonjour"])
        #expect(replayed.map { String(decoding: $0.body, as: UTF8.self) } == ["bonjour", "hello", "bonjour"])
    }

    /// A multipart form upload of `photo` as a fresh client sends it: the boundary is drawn anew each time.
    static func upload(_ photo: String, boundary: String) -> Outgoing {
        let body =
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nbeach\r\n"
            + "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(photo).jpg\"\r\n"
            + "Content-Type: image/jpeg\r\n\r\n\(photo) bytes\r\n--\(boundary)--\r\n"
        return Outgoing(
            method: "POST", target: "/upload", headers: [("Content-Type", "multipart/form-data; boundary=\(boundary)")],
            body: Data(body.utf8))
    }

    @Test func multipartUploads_replayUnderFreshBoundaries_eachWithItsOwnAnswer() async throws {
        // GIVEN two uploads captured, each under the boundary its client drew
        let (captured, replayed) = try await captureThenReplay(
            [Self.upload("one", boundary: "----a1b2c3"), Self.upload("two", boundary: "d4e5f6")],
            // WHEN the same parts are sent again under boundaries never recorded, the other way round
            [Self.upload("two", boundary: "9f8e7d6c5b4a"), Self.upload("one", boundary: "alamofire.boundary.0123abcd")])
        // THEN the strict replay answers each with the answer captured for its own parts (the echoed body)
        #expect(captured.map(\.status) == [201, 201])
        #expect(replayed.map(\.exchangeOnly) == [captured[1].exchangeOnly, captured[0].exchangeOnly])
    }

    /// An Azure block upload's commit: the block list names blocks by IDs the SDK draws afresh on every upload.
    static func commitBlocks(_ ids: [String]) -> Outgoing {
        let list = #"<?xml version="1.0" encoding="utf-8"?><BlockList>"# + ids.map { "<Latest>\($0)</Latest>" }.joined() + "</BlockList>"
        return Outgoing(
            method: "POST", target: "/container/big.bin?comp=blocklist", headers: [("Content-Type", "application/xml")],
            body: Data(list.utf8))
    }

    @Test func blockListWithFreshIDs_replays_whenItsElementsAreIgnored() async throws {
        // GIVEN a block list committed with the IDs of one upload, and the cassette told to ignore <Latest>
        let recorded = Self.commitBlocks(["QUFBQQ==", "QkJCQg=="])
        // WHEN the same upload commits its blocks under fresh IDs
        let fresh = Self.commitBlocks(["WFhYWA==", "WVlZWQ=="])
        let (captured, replayed) = try await captureThenReplay([recorded], [fresh], matching: MatchRules(ignoredXMLElements: ["Latest"]))
        // THEN the strict replay answers it as captured
        #expect(captured.map(\.status) == [201])
        #expect(replayed.map(\.exchangeOnly) == captured.map(\.exchangeOnly))
    }

    /// Whether every character of `url` may stand in a URL as it is (RFC 3986: unreserved, reserved, `%`).
    static func isLegalURL(_ url: String) -> Bool {
        let legal = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=%")
        return url.allSatisfy { legal.contains($0) }
    }

    @Test func redirectToAPresignedURL_replaysALegalURL_thatTheClientFollowsToTheRecordedObject() async throws {
        // GIVEN a download captured through its redirect to a presigned URL, whose signature is redacted
        let download = Outgoing(target: "/download", headers: [])
        // WHEN the client replays it offline, following the redirect as it did live
        let (captured, replayed) = try await captureThenReplay([download], [download, download])
        // THEN it gets the object both times, as it did live
        #expect(captured.map(\.status) == [200])
        #expect(replayed.map(\.status) == [200, 200])
        #expect(replayed.allSatisfy { $0.body == Data("object bytes".utf8) })
    }

    @Test func redactedURLs_inTheCassette_areLegalURLs() async throws {
        // GIVEN the same download captured
        let (_, _) = try await captureThenReplay(
            [Outgoing(target: "/download", headers: [])], [],
            keep: { cassette in
                // THEN the Location replayed and the target it leads to hold the placeholder as a legal URL token
                let location = try #require(cassette.interactions.first?.response?.headers["Location"])
                #expect(location.hasSuffix("X-Amz-Signature=\(Cassette.urlRedactionPlaceholder)"))
                #expect(Self.isLegalURL(location), "\(location)")
                let target = try #require(cassette.interactions.last?.request.target)
                #expect(Self.isLegalURL(target), "\(target)")
            })
    }

    @Test func conditionalRequest_getsThe304_andUnconditionalOne_the200_inAnyOrder() async throws {
        // GIVEN an unconditional GET (200 with an ETag), then a conditional one (304), captured
        let plain = Outgoing(target: "/etag/v1", headers: [])
        let conditional = Outgoing(target: "/etag/v1", headers: [("If-None-Match", "\"v1\"")])
        // WHEN they are replayed conditional first, then unconditional twice
        let (captured, replayed) = try await captureThenReplay([plain, conditional], [conditional, plain, plain])
        // THEN the conditional one gets the 304 and the unconditional ones the 200 with its body
        #expect(captured.map(\.status) == [200, 304])
        #expect(replayed.map(\.status) == [304, 200, 200])
        #expect(replayed[1].body == Data("fresh".utf8) && replayed[2].body == Data("fresh".utf8))
    }

    /// An S3 GET presigned with Signature Version 4 at `date` (`yyyyMMdd'T'HHmmss'Z'`), with a signature of its own.
    static func presigned(at date: String, expires: Int, signature: String) -> Outgoing {
        Outgoing(
            target: "/bucket/report.csv?X-Amz-Algorithm=AWS4-HMAC-SHA256"
                + "&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F\(date.prefix(8))%2Fus-east-1%2Fs3%2Faws4_request"
                + "&X-Amz-Date=\(date)&X-Amz-Expires=\(expires)&X-Amz-SignedHeaders=host&X-Amz-Signature=\(signature)",
            headers: [])
    }

    @Test func urlPresignedAfresh_atReplayTime_matchesTheCapturedOne() async throws {
        // GIVEN a presigned GET captured (its signature and credential are redacted by default)
        let recorded = Self.presigned(at: "20261126T101500Z", expires: 900, signature: "0f3a5c7e9b1d2f4a6c8e0b2d4f6a8c0e")
        // WHEN the same object is presigned again at replay time: another date, lifetime and signature
        let fresh = Self.presigned(at: "20261201T083000Z", expires: 3600, signature: "6b8d0f2a4c6e8a0c2e4b6d8f0a2c4e6b")
        let (captured, replayed) = try await captureThenReplay([recorded], [fresh])
        // THEN the strict replay answers it with the captured object
        #expect(captured.first?.status == 200)
        #expect(replayed.map(\.exchangeOnly) == captured.map(\.exchangeOnly))
    }
}

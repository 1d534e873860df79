import Foundation
@testable import MockServer
import Testing

/// `GET /__mockserver/journal/events`, read as a browser's EventSource reads it, over a raw loopback socket so
/// that each message, the framing and the end of the connection are seen exactly.
@Suite struct JournalEventsTests {
    /// A client of the event stream: the head, then the messages (each without the blank line that ends it).
    final class EventClient: @unchecked Sendable {
        let raw: RawHTTPClient
        /// The status line and headers.
        let head: String
        /// Text received after the last whole message.
        private var rest = ""

        /// Opens `target` on `server` with `headers` (lines without CRLF) and reads the answer's head.
        init(_ server: CassetteServer, _ target: String = "/__mockserver/journal/events", headers: [String] = []) async throws {
            raw = try RawHTTPClient(try #require(server.baseURL))
            let lines = ["GET \(target) HTTP/1.1", "Host: 127.0.0.1"] + headers
            try raw.send(lines.joined(separator: "\r\n") + "\r\n\r\n")
            head = String(decoding: try await raw.read(through: "\r\n\r\n"), as: UTF8.self)
        }

        /// The next `count` messages, reading chunks until they have arrived.
        func messages(_ count: Int) async throws -> [String] {
            var messages: [String] = []
            while messages.count < count {
                if let end = rest.range(of: "\n\n") {
                    messages.append(String(rest[..<end.lowerBound]))
                    rest = String(rest[end.upperBound...])
                    continue
                }
                guard let chunk = try await raw.readChunk() else { throw RawHTTPClient.Failure(description: "the stream ended after \(messages)") }
                rest += String(decoding: chunk, as: UTF8.self)
            }
            return messages
        }

        /// The next message that is not a comment (a keep-alive may come between any two).
        func nextEvent() async throws -> String {
            for _ in 0..<100 {
                let message = try await messages(1)[0]
                if !message.hasPrefix(":") { return message }
            }
            throw RawHTTPClient.Failure(description: "only comments came")
        }

        /// The `id` of a message, and its `data` parsed as JSON.
        static func parse(_ message: String) throws -> (id: Int?, data: [String: Any]) {
            let lines = message.split(separator: "\n", omittingEmptySubsequences: false)
            let id = lines.first { $0.hasPrefix("id: ") }.flatMap { Int($0.dropFirst(4)) }
            let data = try #require(lines.first { $0.hasPrefix("data: ") }?.dropFirst(6))
            let json = try #require(try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any])
            return (id, json)
        }
    }

    static let cassette = ControlAPITests.cassette

    @Test func sendsTheEntriesKept_thenEachNewOne_asOneLineOfTheJournalsJSONEach() async throws {
        try await withMockServer(cassettes: [Self.cassette], configuration: .init(faults: .none)) { server in
            // Given a matched request carrying a credential, and an unmatched one
            _ = try await ControlAPITests.call(server, "/items", headers: ["Authorization": "Bearer abc"])
            _ = try await ControlAPITests.call(server, "/orders")

            // When a client opens the stream, and then a third request is made
            let client = try await EventClient(server)
            let backlog = try await client.messages(2)
            _ = try await ControlAPITests.call(server, "/cart")
            let live = try await client.messages(1)

            // Then the answer is a chunked event stream
            #expect(client.head.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(client.head)")
            #expect(client.head.contains("Content-Type: text/event-stream; charset=utf-8\r\n"), "\(client.head)")
            #expect(client.head.contains("Transfer-Encoding: chunked\r\n"))
            #expect(client.head.contains("Cache-Control: no-store\r\n"))
            // And each message is `id: N` and one line of data, exactly GET journal's entry, credentials redacted
            let (_, _, journal) = try await ControlAPITests.call(server, "/__mockserver/journal")
            let entries = ControlAPITests.entries(journal)
            try #require(entries.count == 3)
            for (index, message) in (backlog + live).enumerated() {
                let lines = message.split(separator: "\n", omittingEmptySubsequences: false)
                #expect(lines.count == 2 && lines[0] == "id: \(index)", "\(message)")
                let (id, data) = try EventClient.parse(message)
                #expect(id == index)
                #expect(NSDictionary(dictionary: data).isEqual(to: entries[index]), "\(data) is not \(entries[index])")
                // The line is the compact serialization of the entry, byte for byte
                let expected = ControlJSON.entry(server.journal.entries[index], redaction: .default).compactText
                #expect(lines.count == 2 && String(lines[1]) == "data: " + expected)
            }
            #expect(!backlog[0].contains("abc"))
            // And the stream's own request is not journaled
            #expect(server.journal.recordedCount == 3)
        }
    }

    @Test func since_andLastEventID_startTheStreamWhereTheClientLeftOff() async throws {
        try await withMockServer(cassettes: [Self.cassette], configuration: .init(faults: .none)) { server in
            // Given three requests
            for _ in 0..<3 { _ = try await ControlAPITests.call(server, "/items") }

            // When one client asks from 1, and another (an EventSource reconnecting) had 1 but repeats since=0
            let fromOne = try await EventClient(server, "/__mockserver/journal/events?since=1")
            let resumed = try await EventClient(server, "/__mockserver/journal/events?since=0", headers: ["Last-Event-ID: 1"])
            let beyond = try await EventClient(server, "/__mockserver/journal/events?since=3")
            _ = try await ControlAPITests.call(server, "/items")

            // Then the first gets 1, 2 and 3; the second 2 and 3; the third only the new one
            #expect(try await fromOne.messages(3).map { try EventClient.parse($0).id } == [1, 2, 3])
            #expect(try await resumed.messages(2).map { try EventClient.parse($0).id } == [2, 3])
            #expect(try await beyond.messages(1).map { try EventClient.parse($0).id } == [3])
        }
    }

    @Test func anEventSourceReconnectingAfterEventZero_resumesAfterIt_andIsNotRefused() async throws {
        try await withMockServer(cassettes: [Self.cassette], configuration: .init(faults: .none)) { server in
            // Given two requests, and an EventSource that saw event 0 reconnecting with its id
            for _ in 0..<2 { _ = try await ControlAPITests.call(server, "/items") }
            let resumed = try await EventClient(server, headers: ["Last-Event-ID: 0"])
            // Then it gets event 1, not event 0 again, and not a 400
            #expect(try await resumed.messages(1).map { try EventClient.parse($0).id } == [1])
        }
    }

    @Test func aJournalThatDroppedItsOldest_beforeTheStreamOpened_isToldAsSkipped_thenStreamedFromTheOldestItKeeps() async throws {
        // Given a journal keeping 2 entries, after 3 requests: entry 0 is gone before any client connects
        let configuration = CassetteServer.Configuration(faults: .none, journalCapacity: 2)
        try await withMockServer(cassettes: [Self.cassette], configuration: configuration) { server in
            for target in ["/items", "/cart", "/orders"] { _ = try await ControlAPITests.call(server, target) }
            #expect(server.journal.droppedCount == 1)

            // When one client asks from 0, one asks for no number (from the start), and one asks from the oldest
            // kept; then another request is made
            let fromZero = try await EventClient(server, "/__mockserver/journal/events?since=0")
            let fromStart = try await EventClient(server)
            let fromOldest = try await EventClient(server, "/__mockserver/journal/events?since=1")
            _ = try await ControlAPITests.call(server, "/items")

            // Then the first two are told first that entry 0 is gone, as a client that fell behind later is, then
            // get the two kept, in order, then the new one
            for client in [fromZero, fromStart] {
                let notice = try await client.messages(1)[0]
                try #require(notice == "event: skipped\ndata: {\"from\": 0, \"to\": 1}")
                let entries = try await client.messages(3).map { try EventClient.parse($0) }
                #expect(entries.map(\.id) == [1, 2, 3])
                #expect(entries.map { $0.data["target"] as? String } == ["/cart", "/orders", "/items"])
            }
            // And the one that asked from the oldest kept missed nothing, and is told of nothing
            #expect(try await fromOldest.messages(3).map { try EventClient.parse($0).id } == [1, 2, 3])
        }
    }

    @Test func aSinceFromBeforeAReset_whoseNewEntriesWereDroppedAlready_isToldAsSkippedAfterTheReset() async throws {
        // Given a journal keeping 2 entries, after 3 requests, and a page that had seen up to 5 before a reset
        let configuration = CassetteServer.Configuration(faults: .none, journalCapacity: 2)
        try await withMockServer(cassettes: [Self.cassette], configuration: configuration) { server in
            for target in ["/items", "/cart", "/orders"] { _ = try await ControlAPITests.call(server, target) }
            let client = try await EventClient(server, headers: ["Last-Event-ID: 5"])

            // Then it is told to clear itself, then that entry 0 is gone, then sent the two kept
            let messages = try await client.messages(2)
            #expect(messages[0] == "event: reset\ndata: {}")
            try #require(messages[1] == "event: skipped\ndata: {\"from\": 0, \"to\": 1}")
            #expect(try await client.messages(2).map { try EventClient.parse($0).id } == [1, 2])
        }
    }

    @Test func aSinceBeyondTheJournal_isFromBeforeAReset_soTheStreamSaysResetAndStartsFromZero() async throws {
        try await withMockServer(cassettes: [Self.cassette], configuration: .init(faults: .none)) { server in
            // Given one request, and a page that had seen up to 5: numbers from before a reset
            _ = try await ControlAPITests.call(server, "/items")
            let client = try await EventClient(server, headers: ["Last-Event-ID: 5"])

            // Then it is told to clear itself, then sent entry 0
            let messages = try await client.messages(2)
            #expect(messages[0] == "event: reset\ndata: {}")
            #expect(try EventClient.parse(messages[1]).id == 0)
        }
    }

    @Test(arguments: [
        ("?since=-1", [String](), "since must be a whole number of 0 or more (the next value the last answer gave), not '-1'."),
        ("?since=x", [], "since must be a whole number of 0 or more (the next value the last answer gave), not 'x'."),
        ("", ["Last-Event-ID: seven"], "Last-Event-ID must be the id of an event this stream sent, a whole number of 0 or more, not 'seven'."),
    ])
    func aBadSinceOrLastEventID_is400WithOneSentence(query: String, headers: [String], sentence: String) async throws {
        try await withMockServer(cassettes: [Self.cassette], configuration: .init(faults: .none)) { server in
            var headerFields: [String: String] = [:]
            for header in headers {
                let parts = header.split(separator: ":", maxSplits: 1)
                headerFields[String(parts[0])] = parts[1].trimmingCharacters(in: .whitespaces)
            }
            let (status, _, json) = try await ControlAPITests.call(server, "/__mockserver/journal/events" + query, headers: headerFields)
            #expect(status == 400)
            #expect(json?["error"] as? String == sentence)
            #expect(server.journal.watcherCount == 0)
        }
    }

    @Test func aWrongMethod_is405_andWithATokenTheStreamNeedsIt() async throws {
        var configuration = CassetteServer.Configuration(faults: .none)
        configuration.controlToken = "t0k3n"
        try await withMockServer(cassettes: [Self.cassette], configuration: configuration) { server in
            let bearer = ["Authorization": "Bearer t0k3n"]
            let (post, response, postJSON) = try await ControlAPITests.call(
                server, "/__mockserver/journal/events", method: "POST", headers: bearer, body: "{}")
            let (missing, _, _) = try await ControlAPITests.call(server, "/__mockserver/journal/events")
            #expect(post == 405)
            #expect(response.value(forHTTPHeaderField: "Allow") == "GET")
            #expect(postJSON?["error"] as? String == "/__mockserver/journal/events takes GET, not POST.")
            #expect(missing == 403)
            let client = try await EventClient(server, headers: ["Authorization: Bearer t0k3n"])
            #expect(client.head.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(server.journal.watcherCount == 1)
        }
    }

    @Test func reset_isAnnouncedAsAResetEvent_andNumbersStartAgain() async throws {
        try await withMockServer(cassettes: [Self.cassette], configuration: .init(faults: .none)) { server in
            // Given a client that has seen one entry
            _ = try await ControlAPITests.call(server, "/items")
            let client = try await EventClient(server)
            _ = try await client.messages(1)

            // When the journal is reset through the API, and a request follows
            let (status, _, _) = try await ControlAPITests.call(server, "/__mockserver/reset", method: "POST")
            #expect(status == 200)
            let reset = try await client.messages(1)
            _ = try await ControlAPITests.call(server, "/cart")
            let after = try await client.messages(1)

            // Then the client is told to clear itself, and the next entry is numbered 0 again
            #expect(reset == ["event: reset\ndata: {}"])
            let (id, data) = try EventClient.parse(after[0])
            #expect(id == 0)
            #expect(data["target"] as? String == "/cart")
        }
    }

    @Test func aQuietStream_sendsAKeepAliveComment() async throws {
        var configuration = CassetteServer.Configuration(faults: .none)
        configuration.eventKeepAliveInterval = .milliseconds(20)
        try await withMockServer(cassettes: [Self.cassette], configuration: configuration) { server in
            let client = try await EventClient(server)
            // Then with nothing journaled, comments arrive, each a message of its own
            #expect(try await client.messages(2) == [": keep-alive", ": keep-alive"])
        }
    }

    @Test func stoppingTheServer_endsTheStream_andLetsItGo() async throws {
        let server = try CassetteServer(cassettes: [Self.cassette], configuration: .init(faults: .none))
        try await server.start()
        _ = try await ControlAPITests.call(server, "/items")
        let client = try await EventClient(server)
        _ = try await client.messages(1)
        #expect(server.journal.watcherCount == 1)

        // When the server stops
        await server.stop()

        // Then the client sees its connection end, and the journal holds no watcher
        let (_, ending) = await client.raw.readToEnd(timeout: .seconds(30))
        #expect(ending != .timedOut)
        #expect(server.journal.watcherCount == 0)
    }

    @Test func aClientThatFallsBehindTheJournal_isToldWhatItMissed_andStaysConnected() async throws {
        // Given a journal keeping 8 entries, and a client that opens the stream and reads nothing for a while
        let configuration = CassetteServer.Configuration(faults: .none, journalCapacity: 8)
        try await withMockServer(cassettes: [Self.cassette], configuration: configuration) { server in
            let client = try await EventClient(server)
            #expect(server.journal.watcherCount == 1)

            // When far more is journaled than the socket's buffers, the stream's budget and the journal hold
            let body = String(repeating: "a", count: 256 << 10)
            let requests = 96
            for _ in 0..<requests {
                let (status, _, _) = try await ControlAPITests.call(server, "/upload", method: "POST", body: body)
                #expect(status == 404)
            }

            // Then every request was answered and journaled, and the client, reading at last, gets the entries it
            // was sent, a notice of each run it missed, and the rest, in order: each number once, none lost unsaid
            #expect(server.journal.recordedCount == requests)
            var accounted: [Int] = []
            var notices = 0
            for _ in 0..<(2 * requests) where accounted.last != requests - 1 {
                let message = try await client.nextEvent()
                let (id, data) = try EventClient.parse(message)
                if message.hasPrefix("event: skipped\n") {
                    let from = try #require(data["from"] as? Int), to = try #require(data["to"] as? Int)
                    #expect(from < to)
                    accounted += Array(from..<to)
                    notices += 1
                } else {
                    accounted.append(try #require(id))
                }
            }
            #expect(accounted == Array(0..<requests))
            #expect(notices >= 1, "the client read too late to be sent every entry")
            // And the stream follows on: the client is still watched, and the next request reaches it
            #expect(server.journal.watcherCount == 1)
            _ = try await ControlAPITests.call(server, "/after", method: "GET")
            let next = try EventClient.parse(try await client.nextEvent())
            #expect(next.id == requests)
            #expect(next.data["target"] as? String == "/after")
        }
    }
}

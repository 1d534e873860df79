import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import MockServer
import Testing

/// `GET /__mockserver/journal.har`: the journal as HAR 1.2, through URLSession over loopback.
@Suite struct JournalHARTests {
    @Test func theJournalAsHAR_holdsEachRequestWithWhatItWasSent_redacted() async throws {
        // Given a matched request with a credential, an unmatched one with a secret in its query, a request a
        // plan answers 503, and one it resets
        let plan = try FaultPlan.parse(specs: "status=503,path=/cart; reset,path=/gone")
        try await withMockServer(cassettes: [ControlAPITests.cassette], configuration: .init(faults: .plan(plan))) { server in
            _ = try await ControlAPITests.call(server, "/items", headers: ["Authorization": "Bearer abc"])
            _ = try await ControlAPITests.call(server, "/orders?api_key=s3cret")
            _ = try await ControlAPITests.call(server, "/cart")
            _ = try? await ControlAPITests.call(server, "/gone")

            // When the HAR is downloaded
            var request = URLRequest(url: URL(string: "/__mockserver/journal.har", relativeTo: server.baseURL)!)
            request.httpMethod = "GET"
            let (data, response) = try await withURLSession { session in try await session.httpData(for: request) }

            // Then it is a HAR the package reads, with one entry per request in order
            #expect(response.statusCode == 200)
            #expect(response.value(forHTTPHeaderField: "Content-Disposition") == "attachment; filename=\"journal.har\"")
            _ = try HARDocument(jsonData: data, source: "journal.har")
            let log = try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["log"] as? [String: Any])
            #expect(log["version"] as? String == "1.2")
            let entries = try #require(log["entries"] as? [[String: Any]])
            try #require(entries.count == 4, "\(entries)")
            let base = server.baseURL!.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            let requests = entries.map { $0["request"] as? [String: Any] ?? [:] }
            let responses = entries.map { $0["response"] as? [String: Any] ?? [:] }
            #expect(
                requests.map { $0["url"] as? String } == [
                    base + "/items", base + "/orders?api_key=\(Cassette.urlRedactionPlaceholder)", base + "/cart", base + "/gone",
                ])
            #expect(responses.map { $0["status"] as? Int } == [200, 404, 503, 0])
            // And the matched answer is the cassette's, byte for byte as the cassette's own HAR gives it
            let cassetteHAR = try ControlAPITests.cassette.withUpstream("http://x").har()
            #expect((responses[0]["content"] as? [String: Any])?["text"] as? String == cassetteHAR.log.entries[0].response.content.text)
            // And credentials are redacted, in the request and in the 404's near miss
            #expect(!String(decoding: data, as: UTF8.self).contains("abc"))
            #expect(!String(decoding: data, as: UTF8.self).contains("s3cret"))
            let notFound = try #require((responses[1]["content"] as? [String: Any])?["text"] as? String)
            #expect(notFound.contains("closest"), "\(notFound)")
            // And the reset is a failed entry saying so
            #expect(responses[3]["_error"] as? String == "a fault reset the connection")
        }
    }

    @Test func theHAR_holdsWhatTheJournalKeeps_andSaysHowManyItDropped() async throws {
        let configuration = CassetteServer.Configuration(faults: .none, journalCapacity: 2)
        try await withMockServer(cassettes: [ControlAPITests.cassette], configuration: configuration) { server in
            for target in ["/items", "/cart", "/orders"] { _ = try await ControlAPITests.call(server, target) }
            let (status, _, har) = try await ControlAPITests.call(server, "/__mockserver/journal.har")
            let log = har?["log"] as? [String: Any]
            let urls = (log?["entries"] as? [[String: Any]])?.map { ($0["request"] as? [String: Any])?["url"] as? String }
            let base = server.baseURL!.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            #expect(status == 200)
            #expect(urls == [base + "/cart", base + "/orders"])
            #expect(log?["comment"] as? String == "The MockServer journal: 2 requests kept, 1 older ones dropped.")
        }
    }

    @Test func theHAR_takesGETOnly_andIsNeverJournaled() async throws {
        try await withMockServer(cassettes: [ControlAPITests.cassette], configuration: .init(faults: .none)) { server in
            let (post, response, json) = try await ControlAPITests.call(server, "/__mockserver/journal.har", method: "POST", body: "{}")
            let (get, _, har) = try await ControlAPITests.call(server, "/__mockserver/journal.har")
            #expect(post == 405)
            #expect(response.value(forHTTPHeaderField: "Allow") == "GET")
            #expect(json?["error"] as? String == "/__mockserver/journal.har takes GET, not POST.")
            #expect(get == 200)
            #expect(((har?["log"] as? [String: Any])?["entries"] as? [Any])?.isEmpty == true)
            #expect(server.journal.recordedCount == 0)
        }
    }
}

extension Cassette {
    /// This cassette with `upstream` as its upstream (HAR needs one for its URLs).
    func withUpstream(_ upstream: String) -> Cassette {
        var copy = self
        copy.upstream = upstream
        return copy
    }
}

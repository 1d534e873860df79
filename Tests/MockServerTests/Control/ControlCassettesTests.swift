import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import MockServer
import Testing

/// `GET` and `PUT /__mockserver/cassettes`: the cassettes served, switched by name from the recordings folder,
/// through URLSession over loopback.
@Suite struct ControlCassettesTests {
    static let other = Cassette(name: "other", interactions: [.stub("GET", "/other", json: ["other": true])])

    /// A recordings folder holding `shop.json` (the shop cassette) and `more/other.json`, removed after `body`.
    static func withFolder<T>(_ body: (URL) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("control-cassettes-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("more"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try ControlAPITests.cassette.save(to: folder.appendingPathComponent("shop.json"))
        try other.save(to: folder.appendingPathComponent("more/other.json"))
        return try await body(folder)
    }

    static func served(_ server: CassetteServer) async throws -> [String]? {
        try await ControlAPITests.call(server, "/__mockserver/cassettes").json?["served"] as? [String]
    }

    @Test func get_listsTheCassettesServed_andThoseTheFolderHolds_andPutSwitchesByName() async throws {
        try await Self.withFolder { folder in
            var configuration = CassetteServer.Configuration(faults: .none)
            configuration.recordingsFolder = folder
            try await withMockServer(cassettes: [ControlAPITests.cassette], configuration: configuration) { server in
                // When the list is asked for, then the folder's other cassette is put in the shop's place
                let (status, _, before) = try await ControlAPITests.call(server, "/__mockserver/cassettes")
                let (put, _, after) = try await ControlAPITests.call(
                    server, "/__mockserver/cassettes", method: "PUT", body: #"{"cassettes": ["more/other"]}"#)
                let (other, _, _) = try await ControlAPITests.call(server, "/other")
                let (items, _, _) = try await ControlAPITests.call(server, "/items")

                // Then the list names the shop served and both files; after the switch only the other is served,
                // named as PUT took it
                #expect(status == 200)
                #expect(before?["served"] as? [String] == ["shop"])
                #expect(before?["available"] as? [String] == ["more/other", "shop"])
                #expect(put == 200)
                #expect(after?["served"] as? [String] == ["more/other"])
                #expect(other == 200)
                #expect(items == 404)
            }
        }
    }

    @Test(arguments: [
        (#"{"cassettes": ["nope"]}"#, "the cassettes served stay as they were: "),
        // The name keeps its folder: a typo in the last part names the file looked for in full.
        (#"{"cassettes": ["more/othr"]}"#, "the cassettes served stay as they were: no cassette named 'more/othr' in "),
        (#"{"cassettes": ["../shop"]}"#, "'../shop' is not the name of a cassette in the recordings folder; give the cassettes as"),
        ("shop", "the body is not a list of cassette names; give the cassettes as {\"cassettes\": [\"name\", ...]}"),
        (#"{"cassettes": "shop"}"#, "the body is not a list of cassette names;"),
        (#"{"cassettes": ["shop"], "also": 1}"#, "the body is not a list of cassette names;"),
    ])
    func put_anUnknownNameOrAMalformedBody_is400WithOneSentence_andTheCassettesStay(body: String, sentence: String) async throws {
        try await Self.withFolder { folder in
            var configuration = CassetteServer.Configuration(faults: .none)
            configuration.recordingsFolder = folder
            try await withMockServer(cassettes: [ControlAPITests.cassette], configuration: configuration) { server in
                let (status, _, json) = try await ControlAPITests.call(server, "/__mockserver/cassettes", method: "PUT", body: body)
                let (items, _, _) = try await ControlAPITests.call(server, "/items")

                #expect(status == 400)
                let error = try #require(json?["error"] as? String)
                #expect(error.hasPrefix(sentence), "\(error)")
                if body.contains("othr") { #expect(error.contains("(looked for more/othr.json and the folder more/othr)"), "\(error)") }
                #expect(error.hasSuffix(".") && !error.contains("\n"), "\(error)")
                #expect(try await Self.served(server) == ["shop"])
                #expect(items == 200)
            }
        }
    }

    @Test func put_withoutARecordingsFolder_orWhileRecording_is400_andAWrongMethod405() async throws {
        try await withMockServer(cassettes: [ControlAPITests.cassette], configuration: .init(faults: .none)) { server in
            let (status, _, json) = try await ControlAPITests.call(server, "/__mockserver/cassettes", method: "PUT", body: #"{"cassettes": []}"#)
            let (_, _, list) = try await ControlAPITests.call(server, "/__mockserver/cassettes")
            let (delete, response, _) = try await ControlAPITests.call(server, "/__mockserver/cassettes", method: "DELETE")
            #expect(status == 400)
            #expect(
                json?["error"] as? String
                    == "this server has no recordings folder to load cassettes from by name; serve a folder with recorder replay.")
            #expect(list?["available"] is NSNull)
            #expect(list?["served"] as? [String] == ["shop"])
            #expect(delete == 405)
            #expect(response.value(forHTTPHeaderField: "Allow") == "GET, PUT")
        }
        try await Self.withFolder { folder in
            try await withMockServer(cassettes: [ControlAPITests.cassette], configuration: .init(faults: .none)) { upstream in
                let file = folder.appendingPathComponent("recorded.json")
                var configuration = CassetteServer.Configuration(faults: .none, mode: .record)
                configuration.recording = RecordingOptions(upstream: try Upstream(upstream.baseURL!), file: file)
                configuration.recordingsFolder = folder
                try await withMockServer(cassettes: [], configuration: configuration) { recorder in
                    let (status, _, json) = try await ControlAPITests.call(
                        recorder, "/__mockserver/cassettes", method: "PUT", body: #"{"cassettes": ["shop"]}"#)
                    #expect(status == 400)
                    #expect(
                        (json?["error"] as? String)?.contains("only a server in replay mode can replace its cassettes") == true,
                        "\(String(describing: json))")
                }
            }
        }
    }

    @Test func withMockServer_givesTheServerItsRecordingsFolder() async throws {
        try await Self.withFolder { folder in
            try await withMockServer(replaying: "shop", in: folder, configuration: .init(faults: .none)) { server in
                let (status, _, json) = try await ControlAPITests.call(
                    server, "/__mockserver/cassettes", method: "PUT", body: #"{"cassettes": ["more"]}"#)
                #expect(status == 200)
                #expect(json?["served"] as? [String] == ["more/other"])
            }
        }
    }

    @Test func aCassetteServedFromTheFolder_isListedServedAsItIsAvailable_andPutTakesThatName() async throws {
        try await Self.withFolder { folder in
            // GIVEN a test's recording, whose own name spells its folder with a dash, as the trait records it
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("KintoAppTests"), withIntermediateDirectories: true)
            try Cassette(name: "KintoAppTests-app", interactions: [.stub("GET", "/app", json: [:])])
                .save(to: folder.appendingPathComponent("KintoAppTests/app.json"))
            try await withMockServer(replaying: "KintoAppTests/app", in: folder, configuration: .init(faults: .none)) { server in
                // WHEN the list is asked for, and the name it gives is put back
                let list = try await ControlAPITests.call(server, "/__mockserver/cassettes").json
                let served = try #require(list?["served"] as? [String])
                let (put, _, _) = try await ControlAPITests.call(
                    server, "/__mockserver/cassettes", method: "PUT", body: #"{"cassettes": ["\#(served[0])"]}"#)
                // THEN one spelling names it everywhere
                #expect(served == ["KintoAppTests/app"])
                #expect((list?["available"] as? [String])?.contains("KintoAppTests/app") == true)
                #expect(put == 200)
                #expect(try await ControlAPITests.call(server, "/app").status == 200)
            }
        }
    }
}

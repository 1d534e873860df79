import Foundation
@testable import MockServer
import Testing

@Suite struct ImportExportCommandTests {
    /// Every recording except streamed ones: HAR has no place for the timing of a stream's parts.
    static let recordings =
        (try? FileManager.default.subpathsOfDirectory(atPath: Workspace.recordings.path)
            .filter { $0.hasSuffix(".json") && !Workspace.holdsStream($0) }.sorted()) ?? []

    @Test(arguments: recordings)
    func everyRecording_exportedAndImported_isTheSameFile(recording: String) async throws {
        // Given a copy of a recording
        let workspace = try Workspace()
        defer { workspace.remove() }
        try workspace.copyRecording(recording, to: "original.json")
        // When exported to HAR and imported back
        let export = try await workspace.run(["export", "original.json", "--har", "exchange.har"])
        let imported = try await workspace.run(["import", "exchange.har", "--out", "back/again.json"])
        // Then both succeed and the cassette comes back byte for byte
        #expect(export.status == 0)
        #expect(export.stdout.hasPrefix("exchange.har: "))
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try workspace.contents("back/again.json") == (try workspace.contents("original.json")))
        #expect(try HARDocument.load(from: workspace.url("exchange.har")).log.version == "1.2")
    }

    @Test func browserArchive_importsOneHost_reportingSkipsAndRedactions() async throws {
        // Given a browser's archive with a CDN entry
        let workspace = try Workspace()
        defer { workspace.remove() }
        try workspace.copy(Workspace.browserArchive, to: "shop.har")
        // When importing the shop's host
        let result = try await workspace.run(["import", "shop.har", "--out", "Recordings/shop/cart.json", "--host", "shop.example.com"])
        // Then the output says what was written, skipped and redacted
        #expect(
            result.stdout == """
                Recordings/shop/cart.json: 5 interactions from shop.har, upstream https://shop.example.com
                skipped 1 entry for other hosts than shop.example.com
                redacted 5 headers, 1 query parameter, 2 body fields

                """)
        #expect(result.stderr == "")
        #expect(result.status == 0)
        // And the cassette is named after its file, lints clean and lists as expected
        let cassette = try Cassette.load(from: workspace.url("Recordings/shop/cart.json"))
        #expect(cassette.name == "cart")
        #expect(try await workspace.run(["lint"]).stdout == "1 cassette, 5 interactions, 0 findings\n")
        #expect(
            try await workspace.run(["list", "Recordings/shop/cart.json"]).stdout == """
                cart: 5 interactions, recorded, upstream https://shop.example.com
                  0  GET   /api/cart?currency=EUR&token=%3Credacted%3E&view=full  200    164 bytes   84 ms
                  1  POST  /login                                                 302      0 bytes  122 ms
                  2  GET   /images/dot.png                                        200     70 bytes   12 ms
                  3  POST  /api/cart/items                                        201    113 bytes   57 ms
                  4  GET   /api/recommendations?limit=4                           reset          -   30 ms

                """)
    }

    @Test func force_replacesAnExistingOutput_andNameOverrides() async throws {
        // Given existing outputs
        let workspace = try Workspace()
        defer { workspace.remove() }
        try workspace.copyRecording("feed/feeds.json", to: "feeds.json")
        try workspace.write("old", to: "feeds.har")
        try workspace.write("old", to: "copy.json")
        // When exporting and importing with --force
        #expect(try await workspace.run(["export", "feeds.json", "--har", "feeds.har", "--force"]).status == 0)
        #expect(try await workspace.run(["import", "feeds.har", "--out", "copy.json", "--force", "--name", "feed-copy"]).status == 0)
        // Then both files were replaced, and the name is the one given
        #expect(try HARDocument.load(from: workspace.url("feeds.har")).log.entries.count == 3)
        #expect(try Cassette.load(from: workspace.url("copy.json")).name == "feed-copy")
    }
}

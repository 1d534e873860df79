import Foundation
@testable import MockServer

/// The hand-written browser archive shared by the HAR tests, and a way through file bytes.
enum HARFixtures {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    /// A Chrome-style export: HTTP/2 pseudo-headers, a gzip'd response stored decoded, a form post, a PNG,
    /// cookies and repeated Set-Cookie, a font from another host, a failed entry.
    static let browserArchive = repository.appendingPathComponent("Tests/Fixtures/browser.har")

    static func browserDocument() throws -> HARDocument {
        try HARDocument.load(from: browserArchive)
    }

    /// A document through its file bytes, as `recorder export` then `recorder import` would see it.
    static func throughBytes(_ document: HARDocument) throws -> HARDocument {
        try HARDocument(jsonData: document.encoded(), source: "memory.har")
    }
}

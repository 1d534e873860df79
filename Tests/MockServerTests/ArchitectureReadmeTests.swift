import Foundation
import Testing

/// The "Architecture" article (`Sources/MockServer/MockServer.docc/Architecture.md`, once the README's section)
/// names the folders, types and functions a request passes through; each must exist in `Sources/`, so that the
/// article cannot drift from the code unnoticed.
@Suite struct ArchitectureReadmeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The article the README's Architecture section moved to.
    static let article = "Sources/MockServer/MockServer.docc/Architecture.md"

    /// The code spans (between backticks) of the article's section `## title`, up to the next heading.
    static func codeSpans(inSection title: String) throws -> [String] {
        let text = try String(contentsOf: root.appendingPathComponent(article), encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: "## \(title)") else { return [] }
        var spans: [String] = []
        for line in lines[(start + 1)...] {
            if line.hasPrefix("## ") || line.hasPrefix("### ") { break }
            let pieces = line.components(separatedBy: "`")
            // Odd pieces sit between a pair of backticks.
            spans += stride(from: 1, to: pieces.count - 1, by: 2).map { pieces[$0] }
        }
        return spans
    }

    /// Every Swift source under `Sources/`, joined: what the names are looked up in.
    static func allSources() throws -> String {
        let sources = root.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }
            .filter { $0.pathExtension == "swift" }
        return try files.map { try String(contentsOf: $0, encoding: .utf8) }.joined(separator: "\n")
    }

    /// Every name `source` declares as a type, function, property, case or alias.
    static func declaredNames(in source: String) throws -> Set<String> {
        let declaration = try NSRegularExpression(pattern: #"\b(?:struct|class|enum|protocol|actor|typealias|func|var|let|case)\s+([A-Za-z_][A-Za-z0-9_]*)"#)
        let whole = NSRange(source.startIndex..., in: source)
        return Set(declaration.matches(in: source, range: whole).compactMap { Range($0.range(at: 1), in: source).map { String(source[$0]) } })
    }

    /// The names a span refers to: `Type`, `Type.member`, `Type.member(label:)` or `function(label:)`; `nil`
    /// for anything else (a header, a status code, a folder).
    static func names(in span: String) -> [String]? {
        let base = span.split(separator: "(", maxSplits: 1).first.map(String.init) ?? span
        let parts = base.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let identifier = #"^[A-Za-z_][A-Za-z0-9_]*$"#
        guard !parts.isEmpty, parts.allSatisfy({ $0.range(of: identifier, options: .regularExpression) != nil }) else { return nil }
        return parts
    }

    @Test func everyFolderTypeAndFunctionItNames_exists() throws {
        let spans = try Self.codeSpans(inSection: "Layers")
        #expect(spans.count > 30, "the Architecture section should name what a request passes through")
        let declared = try Self.declaredNames(in: Self.allSources())
        for span in spans {
            if span.hasSuffix("/"), !span.contains(" ") {
                // A layer is a folder of Sources/MockServer, or a module of its own (Wire/ is Sources/MockServerWire).
                let folder = Self.root.appendingPathComponent("Sources/MockServer").appendingPathComponent(span)
                let module = Self.root.appendingPathComponent("Sources/MockServer" + span)
                let exists = FileManager.default.fileExists(atPath: folder.path) || FileManager.default.fileExists(atPath: module.path)
                #expect(exists, "README names the folder \(span), which is neither in Sources/MockServer nor a MockServer module")
                continue
            }
            // HTTP header names are spans too; the section writes them with their colon ("`Date:`"), which `names` skips.
            guard let names = Self.names(in: span) else { continue }
            for name in names {
                let exists = declared.contains(name)  // a plain Bool, so that a failure does not print the whole set
                #expect(exists, "README's Architecture names `\(span)`, but Sources/ declares no \(name)")
            }
        }
    }

    @Test func theLayerTable_listsTheFolderGraphsChain_inItsOrder() throws {
        // The Layers section's table: `Wire/`, a module of its own, then the chain FolderGraphTests enforces.
        let text = try String(contentsOf: Self.root.appendingPathComponent(Self.article), encoding: .utf8)
        let section = text.components(separatedBy: "\n## Layers\n").dropFirst().first?.components(separatedBy: "\n## ").first ?? ""
        let rows = section.components(separatedBy: "\n").filter { $0.hasPrefix("| `") }
        let folders = rows.compactMap { $0.split(separator: "`").first { $0.hasSuffix("/") }.map { String($0.dropLast()) } }
        #expect(folders == ["Wire"] + FolderGraphTests.chain)
    }
}

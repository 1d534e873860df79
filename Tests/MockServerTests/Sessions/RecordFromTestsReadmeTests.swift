import Foundation
import Testing

/// The "Recording from your tests" article (`Sources/MockServerTesting/MockServerTesting.docc/RecordingFromTests.md`,
/// once the README's "Record from your tests") shows the `Examples/` package, which CI records and replays: each
/// of its code blocks must be in the example's sources, line for line (indentation aside). The README's own
/// walk-through is checked by `DocumentationSnippetTests`.
@Suite struct RecordFromTestsReadmeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The swift code blocks of the article, from its title `# title` to its end (its `##` sections included).
    static func codeBlocks(inSection title: String) throws -> [[String]] {
        let text = try String(
            contentsOf: root.appendingPathComponent("Sources/MockServerTesting/MockServerTesting.docc/RecordingFromTests.md"),
            encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: "# \(title)") else { return [] }
        var blocks: [[String]] = []
        var block: [String]?
        for line in lines[(start + 1)...] {
            if line == "```swift" { block = [] } else if line == "```", let done = block { blocks.append(done); block = nil } else { block?.append(line) }
        }
        return blocks
    }

    static func trimmed(_ lines: some Sequence<String>) -> [String] {
        lines.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    @Test func everyCodeBlock_isInTheExamplePackage() throws {
        let blocks = try Self.codeBlocks(inSection: "Recording from your tests")
        #expect(blocks.count == 2)
        let examples = Self.root.appendingPathComponent("Examples")
        let files = try #require(FileManager.default.enumerator(at: examples, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }
            .filter { $0.pathExtension == "swift" && !$0.path.contains("/.build/") }
        let sources = try files.map { Self.trimmed(try String(contentsOf: $0, encoding: .utf8).components(separatedBy: "\n")) }
        for block in blocks {
            let wanted = Self.trimmed(block)
            let found = sources.contains { source in
                source.count >= wanted.count && (0...(source.count - wanted.count)).contains { Array(source[$0..<($0 + wanted.count)]) == wanted }
            }
            #expect(found, "README block starting \(wanted.first ?? "") is not in Examples/")
        }
    }
}

import Foundation
import Testing

/// The wire (sockets, event loops, HTTP framing) is the bottom layer of MockServer: it names no type declared
/// above it (recording, the engine, faults, the journal...). Those layers implement what the wire offers
/// (``LoopDescriptor``, ``HTTPHandler``), never the other way round.
@Suite struct WireLayeringTests {
    static let module = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/MockServer")

    @Test func wireSources_nameNoTypeDeclaredInTheLayersAboveThem() throws {
        let wire = Self.module.appendingPathComponent("Wire")
        var above: [String: String] = [:] // type name: the file that declares it
        for file in try Self.swiftFiles(in: Self.module) where !Self.isInside(file, wire) && file.deletingLastPathComponent().path != Self.module.path {
            for name in try Self.topLevelTypes(in: file) { above[name] = file.lastPathComponent }
        }
        #expect(above["Upstream"] == "Upstream.swift", "the scan finds the layers above the wire")
        var references: [String] = []
        for file in try Self.swiftFiles(in: wire) {
            let text = try String(contentsOf: file, encoding: .utf8)
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                let code = line.range(of: "//").map { line[..<$0.lowerBound] } ?? line[...]
                for word in code.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }) {
                    if let declaredIn = above[String(word)] {
                        references.append("\(file.lastPathComponent) names \(word) (declared in \(declaredIn))")
                    }
                }
            }
        }
        #expect(references == [])
    }

    static func isInside(_ file: URL, _ folder: URL) -> Bool {
        file.path.hasPrefix(folder.path + "/")
    }

    static func swiftFiles(in folder: URL) throws -> [URL] {
        let enumerator = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
        return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
    }

    /// The names of the types (and type aliases) a file declares at its top level.
    static func topLevelTypes(in file: URL) throws -> [String] {
        let modifiers: Set<Substring> = ["public", "package", "internal", "fileprivate", "private", "final", "indirect"]
        let kinds: Set<Substring> = ["class", "struct", "enum", "protocol", "actor", "typealias"]
        var names: [String] = []
        for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") where line.first?.isLetter == true {
            let words = line.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }).drop { modifiers.contains($0) }
            guard let kind = words.first, kinds.contains(kind), let name = words.dropFirst().first else { continue }
            names.append(String(name))
        }
        return names
    }
}

import Foundation
import Testing

/// The folders of `Sources/MockServer` are layers in one chain: a folder names only what the folders below it
/// declare. The compiler cannot tell (they are one module; only Wire, below them all, is a module of its own,
/// MockServerWire), so this reads the sources: which folder declares each type, function and global, and
/// which folder names it.
@Suite struct FolderGraphTests {
    /// The chain, bottom first: a folder may name what any folder before it declares, and nothing of a folder
    /// after it. The one place the order is written down (issue 32).
    static let chain = [
        "Cassettes", "Matching", "Faults", "Journal", "Coverage", "Engine", "Recording", "HAR", "Control", "Server", "Drift", "Lint", "Sessions",
    ]

    static let module = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/MockServer")

    @Test func theChainNamesEveryFolder_once() throws {
        let folders = try FolderGraph.folders(of: Self.module)
        #expect(folders.sorted() == Self.chain.sorted())
    }

    @Test func noFolderNamesAFolderAboveIt() throws {
        let graph = try FolderGraph(module: Self.module)
        #expect(graph.edges.count > 20, "the scan finds the references between folders")
        for (edge, names) in graph.edges.sorted(by: { $0.key < $1.key }) {
            guard let from = Self.chain.firstIndex(of: edge.from), let to = Self.chain.firstIndex(of: edge.to), to > from else { continue }
            Issue.record("\(edge.from) names \(names.sorted().prefix(6).joined(separator: ", ")) of \(edge.to), which is above it in the chain")
        }
    }

    @Test func noFolderReachesItselfThroughOthers() throws {
        let graph = try FolderGraph(module: Self.module)
        for circle in graph.circles() {
            Issue.record("the folders name each other in a circle: \(circle.joined(separator: " → "))")
        }
    }

    // The scanner itself, on small sources.

    @Test func commentsAndStringLiterals_nameNothing_butInterpolationsDo() {
        let code = FolderGraph.code(
            of: ##"""
                let a = "Foo \(Bar.x) \"Baz\"" // Qux
                /* Quux /* nested */ Corge */ let b = #"Grault "\(Garply)" \#(Waldo)"#
                let c = """
                    Fred \(Plugh)
                    """
                """##)
        let words = Set(FolderGraph.identifiers(in: code).map(\.name))
        #expect(words.isSuperset(of: ["Bar", "Waldo", "Plugh"]))
        #expect(words.isDisjoint(with: ["Foo", "Baz", "Qux", "Quux", "Corge", "Grault", "Garply", "Fred"]))
    }

    @Test func declarations_topLevelAndMembersOfExtensions_butNotOtherMembers() {
        let code = FolderGraph.code(
            of: """
                struct Top { var inner: Int; func method() {} }
                extension Other { func added() { let local = 1 } }
                func global() {}
                """)
        let declared = FolderGraph.declarations(in: code)
        #expect(Set(declared.reachable) == ["Top", "added", "global"])
        #expect(Set(declared.all) == ["Top", "inner", "method", "added", "local", "global"])
        #expect(FolderGraph.identifiers(in: code).map(\.name).contains("Other"), "extending a type names it")
    }

    @Test func circles_areFoundAndPrintedFromTheirFirstFolder() {
        let graph = FolderGraph(edges: [
            .init(from: "A", to: "B"): ["b"], .init(from: "B", to: "A"): ["a"], .init(from: "B", to: "C"): ["c"],
        ])
        #expect(graph.circles() == [["A", "B", "A"]])
    }
}

/// Which top-level folder of a module names what another declares. A lexical scan: comments and the text
/// of string literals are left out; a name counts when exactly one folder declares it (at the top level, or
/// as a member of an extension) and the naming folder declares nothing of that name itself.
struct FolderGraph {
    struct Edge: Hashable, Comparable, CustomStringConvertible {
        let from: String
        let to: String
        var description: String { "\(from) → \(to)" }
        static func < (lhs: Edge, rhs: Edge) -> Bool { (lhs.from, lhs.to) < (rhs.from, rhs.to) }
    }

    /// Each edge with the names that make it.
    let edges: [Edge: Set<String>]

    init(edges: [Edge: Set<String>]) {
        self.edges = edges
    }

    /// Names that many types implement for a protocol: naming one says nothing of where it was declared.
    static let witnessNames: Set<String> = [
        "description", "debugDescription", "hash", "hashValue", "rawValue",
        "errorDescription", "encode", "makeIterator", "id", "callAsFunction",
    ]

    init(module: URL) throws {
        var code: [String: [String]] = [:]  // folder: the code of each file
        for folder in try Self.folders(of: module) {
            let root = module.appendingPathComponent(folder)
            let files = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
                .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
            code[folder] = try files.map { Self.code(of: try String(contentsOf: $0, encoding: .utf8)) }
        }
        var declaredBy: [String: Set<String>] = [:]  // name: the folders that declare it where others can name it
        var anywhereBy: [String: Set<String>] = [:]  // name: the folders that declare it at all
        for (folder, files) in code {
            for file in files {
                let declared = Self.declarations(in: file)
                for name in declared.reachable where !Self.witnessNames.contains(name) { declaredBy[name, default: []].insert(folder) }
                for name in declared.all { anywhereBy[name, default: []].insert(folder) }
            }
        }
        var edges: [Edge: Set<String>] = [:]
        for (folder, files) in code {
            for file in files {
                for identifier in Self.identifiers(in: file) {
                    let name = identifier.name
                    guard let owners = declaredBy[name], owners.count == 1, let owner = owners.first, owner != folder,
                        anywhereBy[name]?.contains(folder) != true
                    else { continue }
                    // A lower-case name declared in several folders (a member of each) is too common to place.
                    if name.first?.isLowercase == true, (anywhereBy[name]?.count ?? 0) > 1 { continue }
                    // `label:` is an argument label or a declaration, not a use.
                    if identifier.followedByColon, name.first?.isLowercase == true { continue }
                    edges[Edge(from: folder, to: owner), default: []].insert(name)
                }
            }
        }
        self.edges = edges
    }

    /// Every circle, each once: for each edge, the shortest way back to its start, as `[A, B, A]`, beginning
    /// at its first folder in alphabetical order.
    func circles() -> [[String]] {
        var next: [String: [String]] = [:]
        for edge in edges.keys { next[edge.from, default: []].append(edge.to) }
        for key in next.keys { next[key]?.sort() }
        var found: Set<[String]> = []
        for edge in edges.keys.sorted() where edge.from != edge.to {
            // Breadth first from edge.to; each folder reached remembers the one it was reached from.
            var cameFrom: [String: String] = [:]
            var seen: Set<String> = [edge.to]
            var queue = [edge.to]
            var index = 0
            while index < queue.count, cameFrom[edge.from] == nil {
                let current = queue[index]
                index += 1
                for target in next[current] ?? [] where !seen.contains(target) {
                    seen.insert(target)
                    cameFrom[target] = current
                    queue.append(target)
                }
            }
            guard cameFrom[edge.from] != nil else { continue }
            var back = [edge.from]  // from, ..., to: the way back, read backwards
            while let step = cameFrom[back[back.count - 1]] { back.append(step) }
            let circle = [edge.from] + back.reversed().dropLast()
            let first = circle.indices.min { circle[$0] < circle[$1] } ?? 0
            let rotated = Array(circle[first...] + circle[..<first])
            found.insert(rotated + [rotated[0]])
        }
        return found.sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// The top-level folders of `module`.
    static func folders(of module: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(at: module, includingPropertiesForKeys: [.isDirectoryKey])
            .filter { try $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory == true }
            .map(\.lastPathComponent)
            .filter { !$0.hasSuffix(".docc") }  // the documentation catalog holds no code
            .sorted()
    }

    // MARK: - Reading Swift

    /// `source` with comments and the text of string literals blanked out; interpolated expressions stay.
    static func code(of source: String) -> String {
        var scanner = CodeScanner(Array(source.utf8))
        scanner.code(untilParenthesis: false)
        return String(decoding: scanner.out, as: UTF8.self)
    }

    struct Identifier {
        let name: String
        let followedByColon: Bool
    }

    private static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "protocol", "public", "static", "struct", "subscript",
        "typealias", "var", "actor", "package", "case", "return", "self", "Self", "super", "true", "false", "nil",
    ]
    private static let declarationKeywords: Set<String> = [
        "class", "struct", "enum", "protocol", "actor", "typealias", "func", "var", "let", "case", "extension",
    ]

    /// The identifiers `code` uses, leaving out keywords, attributes (`@x`), directives (`#x`) and the names
    /// that declarations introduce.
    static func identifiers(in code: String) -> [Identifier] {
        let bytes = Array(code.utf8)
        var result: [Identifier] = []
        var index = 0
        var previousWord = ""
        while index < bytes.count {
            let byte = bytes[index]
            guard isIdentifierStart(byte) else {
                if !isSpace(byte) { previousWord = "" }
                index += 1
                continue
            }
            let start = index
            while index < bytes.count, isIdentifierPart(bytes[index]) { index += 1 }
            let word = String(decoding: bytes[start..<index], as: UTF8.self)
            defer { previousWord = word }
            let prefixed = start > 0 && (bytes[start - 1] == UInt8(ascii: "@") || bytes[start - 1] == UInt8(ascii: "#"))
            // `extension X` names X, where other declaration keywords introduce a name.
            guard !prefixed, !keywords.contains(word), previousWord == "extension" || !declarationKeywords.contains(previousWord) else { continue }
            var after = index
            while after < bytes.count, bytes[after] == UInt8(ascii: " ") { after += 1 }
            result.append(Identifier(name: word, followedByColon: after < bytes.count && bytes[after] == UInt8(ascii: ":")))
        }
        return result
    }

    /// The names `code` declares: `reachable`, those another folder can name (top-level declarations, and
    /// functions and properties of extensions); `all`, every declared name, locals and members included.
    static func declarations(in code: String) -> (reachable: [String], all: [String]) {
        enum Scope { case type, extensionBody, other }
        let bytes = Array(code.utf8)
        var reachable: [String] = []
        var all: [String] = []
        var scopes: [Scope] = []
        var pending: Scope?
        var keyword = ""
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "{") {
                scopes.append(pending ?? .other)
                pending = nil
                index += 1
                continue
            }
            if byte == UInt8(ascii: "}") {
                _ = scopes.popLast()
                index += 1
                continue
            }
            guard isIdentifierStart(byte) else {
                index += 1
                continue
            }
            let start = index
            while index < bytes.count, isIdentifierPart(bytes[index]) { index += 1 }
            let word = String(decoding: bytes[start..<index], as: UTF8.self)
            if declarationKeywords.contains(keyword) {
                if keyword != "extension" { all.append(word) }  // extending a type names it; it declares it elsewhere
                switch keyword {
                case "extension": pending = .extensionBody
                case "class", "struct", "enum", "protocol", "actor": pending = .type
                default: pending = .other
                }
                if scopes.isEmpty, keyword != "extension", keyword != "case" {
                    reachable.append(word)
                } else if scopes == [.extensionBody], ["func", "var", "let"].contains(keyword) {
                    reachable.append(word)
                }
                keyword = ""
            } else {
                keyword = declarationKeywords.contains(word) || word == "init" ? word : ""
                if word == "init" { pending = .other }
            }
        }
        return (reachable, all)
    }

    private static func isIdentifierStart(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || byte == UInt8(ascii: "_")
    }

    private static func isIdentifierPart(_ byte: UInt8) -> Bool {
        isIdentifierStart(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\t")
    }
}

/// Copies code, leaving out comments and the text of string literals (plain, raw `#"…"#`, multi-line), but
/// keeping what is interpolated in them.
private struct CodeScanner {
    let bytes: [UInt8]
    var index = 0
    var out: [UInt8] = []

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        out.reserveCapacity(bytes.count)
    }

    private func byte(at offset: Int) -> UInt8? {
        index + offset < bytes.count ? bytes[index + offset] : nil
    }

    private func startsWith(_ text: StaticString, at position: Int) -> Bool {
        let count = text.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        return (0..<count).allSatisfy { bytes[position + $0] == text.utf8Start[$0] }
    }

    /// Copies code up to the end, or with `untilParenthesis`, up to and past the `)` that closes an interpolation.
    mutating func code(untilParenthesis: Bool) {
        var depth = 0
        while index < bytes.count {
            let current = bytes[index]
            if startsWith("//", at: index) {
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
            } else if startsWith("/*", at: index) {
                var nesting = 0
                repeat {
                    if startsWith("/*", at: index) {
                        nesting += 1; index += 2
                    } else if startsWith("*/", at: index) {
                        nesting -= 1; index += 2
                    } else {
                        index += 1
                    }
                } while nesting > 0 && index < bytes.count
                out.append(UInt8(ascii: " "))
            } else if current == UInt8(ascii: "#") {
                var hashes = 0
                while byte(at: hashes) == UInt8(ascii: "#") { hashes += 1 }
                if byte(at: hashes) == UInt8(ascii: "\"") {
                    index += hashes
                    string(hashes: hashes)
                } else {
                    out.append(current)
                    index += 1
                }
            } else if current == UInt8(ascii: "\"") {
                string(hashes: 0)
            } else {
                if untilParenthesis {
                    if current == UInt8(ascii: "(") { depth += 1 }
                    if current == UInt8(ascii: ")") {
                        if depth == 0 { index += 1; return }
                        depth -= 1
                    }
                }
                out.append(current)
                index += 1
            }
        }
    }

    /// Skips a string literal that starts at `index` (its opening quote, after any `#`s), copying only its
    /// interpolations (and its line breaks, so that lines keep their numbers).
    private mutating func string(hashes: Int) {
        let multiLine = startsWith("\"\"\"", at: index)
        let quotes = multiLine ? 3 : 1
        index += quotes
        out.append(UInt8(ascii: " "))
        while index < bytes.count {
            let current = bytes[index]
            if current == UInt8(ascii: "\\") {
                var seen = 0
                while seen < hashes, byte(at: 1 + seen) == UInt8(ascii: "#") { seen += 1 }
                if seen == hashes, byte(at: 1 + seen) == UInt8(ascii: "(") {
                    index += 2 + seen
                    out.append(UInt8(ascii: " "))
                    code(untilParenthesis: true)
                    out.append(UInt8(ascii: " "))
                    continue
                }
                index += seen == hashes ? 2 + seen : 1  // an escaped character, or a backslash in a raw string
                continue
            }
            if current == UInt8(ascii: "\""), !multiLine || startsWith("\"\"\"", at: index) {
                var seen = 0
                while seen < hashes, byte(at: quotes + seen) == UInt8(ascii: "#") { seen += 1 }
                if seen == hashes {
                    index += quotes + hashes
                    out.append(UInt8(ascii: " "))
                    return
                }
            }
            if current == UInt8(ascii: "\n") { out.append(current) }
            index += 1
        }
    }
}

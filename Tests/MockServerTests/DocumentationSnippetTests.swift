import Foundation
import Testing

/// The README and the DocC articles show code a new user copies; these checks keep it true: the README's
/// `Package.swift` snippet names every library product, every type its Swift snippets name exists, and the
/// walk-through's code blocks are the `Examples/` package's code or the code `FirstHourTests` compiles and runs.
@Suite struct DocumentationSnippetTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The ```` ```swift ```` blocks of `markdown`, each as its lines; only those under the heading `section`
    /// (up to the next heading of the same or a higher level) when it is given.
    static func swiftBlocks(in markdown: String, section: String? = nil) -> [[String]] {
        var lines = markdown.components(separatedBy: "\n")
        if let section {
            guard let start = lines.firstIndex(of: section) else { return [] }
            let level = section.prefix { $0 == "#" }.count
            var end = lines.endIndex
            var fenced = false
            for index in (start + 1)..<lines.endIndex {
                if lines[index].hasPrefix("```") { fenced.toggle() }
                let hashes = lines[index].prefix { $0 == "#" }.count
                if !fenced, hashes > 0, hashes <= level, lines[index].dropFirst(hashes).hasPrefix(" ") { end = index; break }
            }
            lines = Array(lines[(start + 1)..<end])
        }
        var blocks: [[String]] = []
        var block: [String]?
        for line in lines {
            if block == nil, line == "```swift" {
                block = []
            } else if line == "```", let done = block {
                blocks.append(done); block = nil
            } else {
                block?.append(line)
            }
        }
        return blocks
    }

    /// Every Swift file under `folder`, outside build folders.
    static func swiftFiles(under folder: String) throws -> [URL] {
        try #require(FileManager.default.enumerator(at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }
            .filter { $0.pathExtension == "swift" && !$0.path.contains("/.build/") }
    }

    static func trimmed(_ lines: some Sequence<String>) -> [String] {
        lines.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// Whether `block` appears, line for line (indentation aside), in one of `sources`.
    static func contains(_ sources: [[String]], _ block: [String]) -> Bool {
        let wanted = trimmed(block)
        return sources.contains { source in
            source.count >= wanted.count && (0...(source.count - wanted.count)).contains { Array(source[$0..<($0 + wanted.count)]) == wanted }
        }
    }

    /// The library products `Package.swift` declares.
    static func libraryProducts() throws -> [String] {
        let manifest = try text("Package.swift")
        let library = try NSRegularExpression(pattern: #"\.library\(name: "([A-Za-z]+)""#)
        return library.matches(in: manifest, range: NSRange(manifest.startIndex..., in: manifest))
            .compactMap { Range($0.range(at: 1), in: manifest).map { String(manifest[$0]) } }
    }

    @Test(arguments: ["README.md", "Sources/ServiceReplayTesting/ServiceReplayTesting.docc/GettingStarted.md"])
    func packageSnippet_namesEveryLibraryProduct_andBothWaysToDependOnIt(file: String) throws {
        let products = try Self.libraryProducts()
        #expect(products.count == 6, "\(products)")
        let snippet = try #require(Self.swiftBlocks(in: try Self.text(file)).first { $0.contains { $0.contains(".package(url:") } })
            .joined(separator: "\n")
        for product in products {
            #expect(snippet.contains(#".product(name: "\#(product)", package: "ServiceReplay")"#), "\(file)'s Package.swift snippet lacks \(product)")
        }
        #expect(snippet.contains(#".package(url: "https://github.com/OWNER/ServiceReplay.git", from: "0.1.0")"#))
        #expect(snippet.contains(#".package(name: "ServiceReplay", path: "../ServiceReplay")"#))
    }

    @Test func everyDependencySnippet_ofTheREADMEAndTheArticles_namesEveryLibraryProduct() throws {
        let products = try Self.libraryProducts()
        let articles = try #require(FileManager.default.enumerator(at: Self.root.appendingPathComponent("Sources"), includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }
            .filter { $0.pathExtension == "md" && $0.path.contains(".docc/") }
            .map { $0.path.replacingOccurrences(of: Self.root.path + "/", with: "") }
        var snippets = 0
        for file in ["README.md"] + articles {
            for block in Self.swiftBlocks(in: try Self.text(file)) where block.contains(where: { $0.contains(".product(name:") }) {
                snippets += 1
                let snippet = block.joined(separator: "\n")
                for product in products {
                    #expect(snippet.contains(#".product(name: "\#(product)", package: "ServiceReplay")"#), "a snippet of \(file) lacks \(product)")
                }
            }
        }
        #expect(snippets >= 3)
    }

    /// Every name `source` declares as a type, function, property, case or alias.
    static func declaredNames(in source: String) throws -> Set<String> {
        let declaration = try NSRegularExpression(
            pattern: #"\b(?:struct|class|enum|protocol|actor|typealias|associatedtype|func|var|let|case)\s+([A-Za-z_][A-Za-z0-9_]*)"#)
        return Set(
            declaration.matches(in: source, range: NSRange(source.startIndex..., in: source))
                .compactMap { Range($0.range(at: 1), in: source).map { String(source[$0]) } })
    }

    /// The toolchain's names the snippets may use besides the package's own, and the products' module names.
    static let systemNames: Set<String> = [
        "URL", "URLRequest", "URLSessionConfiguration", "String", "Int", "Decodable",
        "Sendable", "Equatable", "Suite", "Test", "Package", "PackageDescription", "FoundationNetworking",
        "Authorization", "App", "XCUIApplication",
    ]

    @Test func everyTypeTheREADMEsSwiftSnippetsAndCodeSpansName_exists() throws {
        var declared = Set<String>()
        for file in try Self.swiftFiles(under: "Sources") + Self.swiftFiles(under: "Examples") {
            declared.formUnion(try Self.declaredNames(in: String(contentsOf: file, encoding: .utf8)))
        }
        declared.formUnion(try Self.libraryProducts())
        let readme = try Self.text("README.md")
        // Capitalised names in the snippets (string literals aside; comments count), all-capital ones (GET, LOGIN) aside
        let strings = try NSRegularExpression(pattern: #""[^"\n]*""#)
        let word = try NSRegularExpression(pattern: #"\b[A-Z][A-Za-z0-9_]*\b"#)
        var named: [String] = []
        for block in Self.swiftBlocks(in: readme) {
            let code = block.joined(separator: "\n")
            let bare = strings.stringByReplacingMatches(in: code, range: NSRange(code.startIndex..., in: code), withTemplate: "\"\"")
            named += word.matches(in: bare, range: NSRange(bare.startIndex..., in: bare)).compactMap { Range($0.range, in: bare).map { String(bare[$0]) } }
        }
        // Code spans of the prose naming a type (`WebService`, `ProfileService.profile(login:)`) or a function (`serviceError(in:)`)
        var fenced = false
        for line in readme.components(separatedBy: "\n") {
            if line.hasPrefix("```") { fenced.toggle(); continue }
            guard !fenced else { continue }
            let pieces = line.components(separatedBy: "`")
            for span in stride(from: 1, to: pieces.count - 1, by: 2).map({ pieces[$0] }) {
                let base = span.split(separator: "(", maxSplits: 1).first.map(String.init) ?? span
                let parts = base.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
                guard parts.allSatisfy({ $0.range(of: #"^[A-Za-z_][A-Za-z0-9_]*$"#, options: .regularExpression) != nil }),
                    let first = parts.first?.first, first.isUppercase || span.contains("(")
                else { continue }
                named += parts
            }
        }
        #expect(named.count > 40, "the README's snippets should name the package's types")
        for name in Set(named) where name.contains(where: \.isLowercase) && !Self.systemNames.contains(name) {
            let exists = declared.contains(name)  // a plain Bool, so that a failure does not print the whole set
            #expect(exists, "the README names \(name), which neither Sources/ nor Examples/ declares")
        }
    }

    /// The walk-through's blocks: in the README and in the article, from the service on.
    @Test(arguments: [
        ("README.md", "## Five minutes with an iOS service", 5),
        ("Sources/ServiceReplayTesting/ServiceReplayTesting.docc/GettingStarted.md", "## Write a service", 3),
        ("Sources/ServiceReplayTesting/ServiceReplayTesting.docc/GettingStarted.md", "## Put the trait on the suite", 1),
        ("Sources/ServiceReplayTesting/ServiceReplayTesting.docc/GettingStarted.md", "## Add one fault", 1),
        ("Sources/ServiceReplayTesting/ServiceReplayTesting.docc/GettingStarted.md", "## Run the fault matrix", 1),
        ("Sources/MockServerAppRouting/MockServerAppRouting.docc/UITests.md", "### In Swift Testing: the trait", 1),
    ])
    func walkThroughBlocks_areTheExamplePackagesCode_orFirstHourTests(file: String, section: String, count: Int) throws {
        let blocks = Self.swiftBlocks(in: try Self.text(file), section: section)
        #expect(blocks.count == count, "\(file) \(section)")
        let files = try Self.swiftFiles(under: "Examples") + [Self.root.appendingPathComponent("Tests/ServicesReplayTests/FirstHourTests.swift")]
        let sources = try files.map { Self.trimmed(try String(contentsOf: $0, encoding: .utf8).components(separatedBy: "\n")) }
        for block in blocks {
            #expect(Self.contains(sources, block), "\(file): the block starting \(block.first ?? "") is neither in Examples/ nor in FirstHourTests")
        }
    }

    @Test func errorBodyExample_isTheOneReadmeExampleTestsSends() throws {
        let blocks = Self.swiftBlocks(
            in: try Self.text("Sources/ServiceKit/ServiceKit.docc/ServicesAndErrors.md"),
            section: "## Reading an API's own error body")
        #expect(blocks.count == 1)
        let test = Self.trimmed(try Self.text("Tests/ServiceKitTests/ReadmeExampleTests.swift").components(separatedBy: "\n"))
        for block in blocks {
            #expect(Self.contains([test], block), "the article's block starting \(block.first ?? "") is not in ReadmeExampleTests")
        }
    }

    /// The "Sending data" blocks of the same article: each service and the caller's code are
    /// ReadmeExampleTests' own, which sends them and compares the bytes and headers that go out.
    @Test(arguments: [
        ("### A POST with a nested JSON body", 2),
        ("### A PATCH with If-Match, and its 412", 2),
        ("### A DELETE", 1),
        ("### A header of the service's own: configure(_:)", 1),
        ("## GraphQL", 2),
    ])
    func sendingDataExamples_areTheOnesReadmeExampleTestsSends(section: String, count: Int) throws {
        let blocks = Self.swiftBlocks(in: try Self.text("Sources/ServiceKit/ServiceKit.docc/ServicesAndErrors.md"), section: section)
        #expect(blocks.count == count, "\(section)")
        let test = Self.trimmed(try Self.text("Tests/ServiceKitTests/ReadmeExampleTests.swift").components(separatedBy: "\n"))
        for block in blocks {
            #expect(Self.contains([test], block), "the article's block starting \(block.first ?? "") under \(section) is not in ReadmeExampleTests")
        }
    }

    @Test func faultMatrixExamples_nameServiceTypes_notWrappers() throws {
        // The README's and the article's first matrix run a type that conforms to WebService
        // (blank-free, so that the call's layout does not matter)
        let readme = Self.swiftBlocks(in: try Self.text("README.md")).map { $0.joined().filter { !$0.isWhitespace } }
        #expect(readme.contains { $0.contains("FaultMatrix.run(UserProfile(login:\"octocat\")") })
        #expect(!readme.contains { $0.contains("FaultMatrix.run(ProfileService(") })
        let article = try Self.text("Sources/ServiceReplayTesting/ServiceReplayTesting.docc/TheFaultMatrix.md")
        #expect(article.contains("FaultMatrix.run(GitHubUserService(login: \"octocat\")"))
        #expect(!article.contains("FaultMatrix.run(ProfileService("))
    }

    @Test func readme_fitsOnAFewScreens_andLinksEveryArticle() throws {
        let readme = try Self.text("README.md")
        #expect(readme.components(separatedBy: "\n").count <= 231)
        let articles = try #require(FileManager.default.enumerator(at: Self.root.appendingPathComponent("Sources"), includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }
            .filter {
                $0.pathExtension == "md" && $0.path.contains(".docc/")
                    && $0.deletingPathExtension().lastPathComponent != $0.deletingLastPathComponent().deletingPathExtension().lastPathComponent
            }
        #expect(articles.count >= 12)
        for article in articles {
            let relative = article.path.replacingOccurrences(of: Self.root.path + "/", with: "")
            #expect(readme.contains("(\(relative))"), "the README does not link \(relative)")
        }
    }
}

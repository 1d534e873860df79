import Foundation
import Testing

/// Every command's one-sentence errors, word for word, with their exit status, run in a folder holding a
/// copy of the log-in cassette (`login.json`), an existing `out.har` and `taken.json`, and a broken cassette.
@Suite struct CommandErrorTests {
    private static func workspace() throws -> Workspace {
        let workspace = try Workspace()
        try workspace.copyRecording("login/login.json", to: "login.json")
        try workspace.copyRecording("ticker/prices.json", to: "ticker.json")
        try workspace.copy(Workspace.browserArchive, to: "browser.har")
        try workspace.write("keep", to: "out.har")
        try workspace.write("keep", to: "taken.json")
        try workspace.write(
            #"{"format": "servicereplay-cassette", "version": 1, "interactions": [{"request": {"method": "GET"}, "response": {"status": 200}}]}"#,
            to: "broken.json")
        try workspace.write(
            #"{"format": "servicereplay-cassette", "version": 1, "name": "local", "interactions": [{"request": {"method": "GET", "target": "/"}, "response": {"status": 204}}]}"#,
            to: "local.json")
        return workspace
    }

    @Test(arguments: [
        (["list"], "list needs one cassette; run `recorder list --help`"),
        (["list", "login.json", "extra"], "list takes one cassette, but 'extra' is one too many"),
        (["list", "--curl", "login.json"], "list does not take the option '--curl'; run `recorder list --help` for its options"),
        (["show", "login.json"], "show needs a cassette and an interaction index; run `recorder show --help`"),
        (["show", "login.json", "first"], "INDEX 'first' is not a whole number"),
        (["show", "login.json", "2"], "interaction 2 does not exist; login has interactions 0 to 1"),
        (["show", "login.json", "-1"], "interaction -1 does not exist; login has interactions 0 to 1"),
        (["show", "login.json", "0", "--curl=yes"], "--curl takes no value"),
        (["lint", "-x"], "lint does not take the option '-x'; run `recorder lint --help` for its options"),
        (["redact"], "redact needs at least one cassette or folder; run `recorder redact --help`"),
        (["redact", "login.json", "--redact-header"], "--redact-header needs a value"),
        (["import", "browser.har"], "--out is required"),
        (["import", "--out", "new.json"], "import needs one HAR file; run `recorder import --help`"),
        (["import", "browser.har", "--out", "a.json", "--out", "b.json"], "--out is given 2 times; give it once"),
        (
            ["import", "browser.har", "--out", "new.json", "--no-redact"],
            "import does not take the option '--no-redact'; run `recorder import --help` for its options"
        ),
        (["export", "login.json"], "--har is required"),
        (["export", "--har", "new.har"], "export needs one cassette; run `recorder export --help`"),
    ])
    func usageErrors_exitTwo_withOneSentence(arguments: [String], sentence: String) async throws {
        let workspace = try Self.workspace()
        defer { workspace.remove() }
        // When the command line is wrong
        let result = try await workspace.run(arguments)
        // Then one sentence on standard error, nothing on standard output, status 2
        #expect(result.stderr == "recorder: \(sentence)\n")
        #expect(result.stdout == "")
        #expect(result.status == 2)
    }

    @Test(
        arguments: [
            (["list", "missing.json"], "missing.json: cannot read the file (No such file or directory)"),
            (["list", "broken.json"], "broken.json: interaction 0: request.target: required field is missing"),
            (["show", "local.json", "0", "--curl"], "local names no upstream, so its requests have no URL for curl"),
            (
                ["show", "ticker.json", "0", "--curl"],
                "interaction 0 of ticker-prices is a WebSocket conversation, which curl cannot hold; open it with a WebSocket client (Python's websockets, a browser) at the server's ws:// address and path /v1/prices?market=crypto"
            ),
            (["export", "login.json", "--har", "out.har"], "out.har already exists; pass --force to replace it"),
            (["export", "local.json", "--har", "local.har"], "local.json: the cassette local names no upstream, so its requests have no URL for HAR"),
            (["import", "browser.har", "--out", "taken.json"], "taken.json already exists; pass --force to replace it"),
            (
                ["import", "browser.har", "--out", "new.json"],
                "browser.har: entry 3: https://fonts.example-cdn.com is another host than https://shop.example.com of entry 0; pass --host to import one host and skip the others"
            ),
            (
                ["import", "browser.har", "--out", "new.json", "--host", "example.org"],
                "browser.har: no entry is for example.org; the archive's hosts are https://fonts.example-cdn.com, https://shop.example.com"
            ),
            (["import", "login.json", "--out", "new.json"], "login.json: log: the field is missing"),
            (["import", "missing.har", "--out", "new.json"], "missing.har: cannot read the file (No such file or directory)"),
            (["lint", "nowhere"], nil),
        ] as [([String], String?)])
    func failures_exitOne_withOneSentence_andTouchNothing(arguments: [String], sentence: String?) async throws {
        let workspace = try Self.workspace()
        defer { workspace.remove() }
        let before = try FileManager.default.contentsOfDirectory(atPath: workspace.folder.path).sorted()
        let bytes = try before.map { try workspace.contents($0) }
        // When the work fails
        let result = try await workspace.run(arguments)
        // Then one sentence (lint reports on standard output instead), status 1
        if let sentence {
            #expect(result.stderr == "recorder: \(sentence)\n")
        } else {
            #expect(result.stdout == "nowhere: no such file or folder\n0 cassettes, 0 interactions, 1 finding\n")
        }
        #expect(result.status == 1)
        // And no file was created, changed or removed
        #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.folder.path).sorted() == before)
        #expect(try before.map { try workspace.contents($0) } == bytes)
    }
}

import Foundation
@testable import MockServer
import ServiceReplayShared
import Testing

/// The one verdict on secrets (`RedactionRules+Verdict`): which names and values are secrets, by which rule.
@Suite struct SecretVerdictTests {
    let rules = RedactionRules.default
    static let random = "Zk9vYmFyQmF6UXV4MTIzNDU2Nzg5MGFiY2RlZkdISUpLTG1ubw"
    static let githubToken = "ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"

    @Test(arguments: [
        ("token", false), ("access_token", false), ("id_token", false), ("refresh_token", false), ("session_token", false),
        ("SessionToken", false), ("csrfToken", false), ("api_key", false), ("apiKey", false), ("password", false),
        ("new_password", false), ("secret", false), ("client_secret", false), ("aws_secret_key", false), ("X-Amz-Signature", false),
        ("Authorization", true), ("X-Amz-Security-Token", true), ("Cookie", true), ("X-Api-Key", true), ("X-Custom-Secret", true),
    ])
    func credentialNames_areSecretsByName_whateverTheValue(name: String, header: Bool) {
        // A short, plain value: only the name can make it a secret.
        let rule = rules.verdict(on: "abc123", name: name, header: header)
        #expect(rule?.kind == .name(name, .builtIn, urlParameter: false))
        #expect(rule?.reason == "looks like a credential (name `\(name)`)")
    }

    @Test(arguments: [
        "UploadId", "uploadId", "upload_id", "NextContinuationToken", "ContinuationToken", "continuation-token", "_token", "cursor",
        "next_cursor", "endCursor", "next_page_token", "nextPageToken", "pageToken", "NextToken", "NextUploadIdMarker", "X-Request-Id",
        "x-amz-version-id", "traceparent", "id", "x-amz-checksum-sha256", "Content-MD5", "Digest",
    ])
    func identifiersCursorsAndDigests_areNoSecretsByNameNorForLookingRandom_butAPreciseCredentialInOneStillIs(name: String) {
        #expect(rules.verdict(on: Self.random, name: name) == nil)
        #expect(rules.verdict(on: Self.random, name: name, header: true) == nil)
        #expect(!rules.redactsField(name) && !rules.redactsHeader(name))
        #expect(rules.verdict(on: Self.githubToken, name: name)?.kind == .format(.known("GitHub token")))
    }

    @Test func identifierList_holdsNoNameTheDefaultRulesRedact() {
        for name in RedactionRules.defaultHeaders.union(RedactionRules.defaultFields) {
            #expect(!IdentifierNames.contains(name), "\(name)")
        }
    }

    @Test func valuesAreJudgedByTheirFormat_aGuessOnlyInARequestHeader() {
        #expect(rules.verdict(on: Self.random, name: "X-Revision", header: true, guessing: true)?.reason == "looks like a credential (a high-entropy string)")
        #expect(rules.verdict(on: Self.random, name: "X-Revision", header: true, guessing: true)?.allowEntry == "X-Revision")
        // Anywhere else a random-looking value is replayed or matched as recorded: a guess does not decide
        #expect(rules.verdict(on: Self.random, name: "revision") == nil)
        #expect(rules.verdict(on: Self.random, name: nil, path: JSONPath.root.appending(.index(2))) == nil)
        #expect(rules.verdict(on: Self.githubToken, name: "revision")?.kind == .format(.known("GitHub token")))
        #expect(rules.verdict(onWord: Self.random) == nil)
        #expect(rules.verdict(onWord: Self.githubToken)?.kind == .format(.known("GitHub token")))
        #expect(RedactionRules.none.verdict(on: Self.githubToken, name: "note") == nil)
        #expect(rules.verdict(on: "<redacted>", name: "token") == nil)
        #expect(rules.verdict(on: "", name: "token") == nil)
    }

    @Test func booleansAndNull_areNeverSecrets_numbersAndObjectsUnderASecretName_are() {
        let path = JSONPath.root.appending(.key("x"))
        #expect(rules.verdict(onMember: .bool(false), name: "password", path: path) == nil)
        #expect(rules.verdict(onMember: .null, name: "password", path: path) == nil)
        #expect(rules.verdict(onMember: 1234, name: "pin_password", path: path) != nil)
        #expect(rules.verdict(onMember: ["value": "v"], name: "token", path: path) != nil)
    }

    @Test func rulesFile_allowsNamesPathsAndValues_andItsRedactWinsOverAllow() {
        let project = rules.adding(
            ProjectRules(allow: ["revision", "$.items[*].blob", "AKIAIOSFODNN7EXAMPLE", "token"], redact: ["pin", "$.user.code"]))
        let items = JSONPath.root.appending(.key("items")).appending(.index(3)).appending(.key("blob"))
        #expect(project.verdict(on: Self.random, name: "revision", header: true, guessing: true) == nil)
        #expect(project.verdict(on: Self.random, name: "blob", path: items) == nil)
        #expect(project.verdict(on: "AKIAIOSFODNN7EXAMPLE", name: "access_key") == nil)
        #expect(project.verdict(on: "abc123", name: "token") == nil)
        // What it does not allow is judged as before
        #expect(project.verdict(on: Self.random, name: "X-Etag-V2", header: true, guessing: true) != nil)
        // A name or path it lists is a secret whatever the value, and says so
        #expect(project.verdict(on: "AKIAIOSFODNN7EXAMPLE", name: "pin")?.reason == "listed as a secret (name `pin`)")
        #expect(project.redactsHeader("PIN") && project.redactsField("Pin"))
        let code = JSONPath.root.appending(.key("user")).appending(.key("code"))
        #expect(project.verdict(onMember: 42, name: "code", path: code)?.reason == "listed as a secret (path `$.user.code`)")
        #expect(project.verdict(onMember: 42, name: "code", path: JSONPath.root.appending(.key("code"))) == nil)
    }

    @Test func advice_saysWhatToAddOrRemove_andNothingForWhatWasGivenOnPurpose() {
        let file = "Recordings/.servicereplay.json"
        #expect(rules.verdict(on: "x1", name: "token")?.advice(rulesFile: file) == "if it is not, add \"token\" to allow in \(file)")
        #expect(rules.verdict(onWord: Self.githubToken)?.advice(rulesFile: file) == "if it is not, add the value to allow in \(file)")
        let project = rules.adding(ProjectRules(redact: ["pin"]))
        #expect(project.verdict(on: "1234", name: "pin")?.advice(rulesFile: file) == "if it is not, remove \"pin\" from redact in \(file)")
        let command = rules.adding(headers: ["X-Session"], source: .commandLine)
        #expect(command.verdict(on: "s", name: "X-Session", header: true)?.advice(rulesFile: file) == nil)
    }
}

/// Where the rules file of a cassette is, and what a malformed one says.
@Suite struct ProjectRulesTests {
    @Test(arguments: [
        ("Recordings/pins.json", "Recordings/.servicereplay.json"),
        ("Recordings/s3/multipart.json", "Recordings/.servicereplay.json"),
        ("app/Recordings/a/b/c.json", "app/Recordings/.servicereplay.json"),
        ("cassettes/login.json", "cassettes/.servicereplay.json"),
        ("login.json", ".servicereplay.json"),
    ])
    func rulesFile_isInTheNearestRecordingsFolder_elseBesideTheCassette(cassette: String, expected: String) {
        let base = URL(fileURLWithPath: "/work/project", isDirectory: true)
        let file = ProjectRules.file(for: URL(fileURLWithPath: cassette, isDirectory: false, relativeTo: base), root: nil)
        #expect(file.relativePath == expected)
        #expect(file.path == "/work/project/" + expected)
    }

    @Test func aTestsRecordingsFolder_holdsTheRulesFile_whateverItsName() {
        let root = URL(fileURLWithPath: "/tmp/fixtures", isDirectory: true)
        let file = ProjectRules.file(for: root.appendingPathComponent("api/things.json"), root: root)
        #expect(file.path == "/tmp/fixtures/.servicereplay.json")
    }

    @Test func wellFormedFile_givesItsLists_andNamesStartingWithDollarAreNames() throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent(".servicereplay.json")
        try Data(#"{"allow": ["UploadId", "$.meta.sum", "$skiptoken"], "redact": ["pin"]}"#.utf8).write(to: url)
        let project = try ProjectRules(contentsOf: url)
        #expect(project == ProjectRules(allow: ["UploadId", "$.meta.sum", "$skiptoken"], redact: ["pin"]))
        #expect(ProjectRules.isPath("$.meta.sum") && ProjectRules.isPath("$[\"a-b\"]") && !ProjectRules.isPath("$skiptoken"))
        #expect(try ProjectRules(contentsOf: url) == (try ProjectRules.governing(folder.appendingPathComponent("c.json"), root: folder)))
        #expect(try ProjectRules.governing(folder.appendingPathComponent("c.json"), root: folder.appendingPathComponent("none")) == nil)
    }

    @Test func theArticlesExample_isAWellFormedRulesFile() throws {
        // GIVEN the JSON block of the section on secrets in the article "Cassettes and HAR"
        let article = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/MockServer/MockServer.docc/CassettesAndHAR.md")
        let text = try String(contentsOf: article, encoding: .utf8)
        let section = try #require(text.range(of: "### Secrets: one verdict"))
        let start = try #require(text.range(of: "```json\n", range: section.upperBound..<text.endIndex))
        let end = try #require(text.range(of: "```", range: start.upperBound..<text.endIndex))
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent(".servicereplay.json")
        try Data(text[start.upperBound..<end.lowerBound].utf8).write(to: url)
        // THEN it reads, with both lists
        let project = try ProjectRules(contentsOf: url)
        #expect(project.allow.contains("UploadId") && project.redact.contains("pin"))
    }

    @Test func unreadableFile_isOneSentenceNamingIt() throws {
        let folder = try CassetteFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent(".servicereplay.json")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let error = #expect(throws: MockServerError.self) { try ProjectRules(contentsOf: url) }
        #expect(error?.description.hasPrefix("\(url.path): cannot read the file (") == true)
    }
}

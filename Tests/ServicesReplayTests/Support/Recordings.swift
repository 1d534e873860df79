import Foundation
@testable import MockServer
import Testing

/// The project's `Recordings/` folder and the cassettes in it, read the way MockServer reads them.
enum Recordings {
    /// The nearest `Recordings/` above this file, whatever `MOCKSERVER_RECORDINGS` says: the suite tests these.
    static var folder: URL {
        get throws {
            try #require(RecordingsFolder.nearest(to: #filePath, environment: TestEnvironment.ownSuite), "no Recordings folder above \(#filePath)")
        }
    }

    /// The cassette `name` (`github/users`), as a replay server would load it.
    static func cassette(_ name: String) throws -> Cassette {
        try #require(try RecordingsFolder.cassettes(named: name, in: folder).first, "no cassette named \(name)")
    }

    /// Every cassette in the folder, in file order.
    static func all() throws -> [Cassette] {
        try Cassette.loadAll(from: folder)
    }
}

extension Cassette {
    /// The JSON body of interaction `index`'s recorded response.
    func responseJSON(_ index: Int) throws -> CassetteJSON {
        let interaction = try #require(
            interactions.indices.contains(index) ? interactions[index] : nil,
            "\(name) has no interaction \(index)")
        let response = try #require(interaction.response, "\(name) interaction \(index) recorded a transport failure")
        guard case .json(let json, _) = response.body.form else { throw FixtureProblem("\(name) interaction \(index) has no JSON body") }
        return json
    }

    /// The error template `name`.
    func template(_ name: String) throws -> RecordedResponse {
        try #require(errorTemplates[name], "\(self.name) has no error template \(name)")
    }

    /// The JSON body of the error template `name`.
    func templateJSON(_ name: String) throws -> CassetteJSON {
        guard case .json(let json, _) = try template(name).body.form else { throw FixtureProblem("\(self.name) template \(name) has no JSON body") }
        return json
    }
}

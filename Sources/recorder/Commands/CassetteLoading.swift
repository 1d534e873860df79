import Foundation
import MockServer

/// Loading the one cassette a command names, with the loader's sentence as the failure.
enum CassetteLoading {
    static func load(_ path: String) throws(RecorderError) -> Cassette {
        do {
            return try Cassette.load(from: URL(fileURLWithPath: path, isDirectory: false))
        } catch {
            throw .failure(error.description)
        }
    }
}

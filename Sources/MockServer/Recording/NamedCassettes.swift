import Foundation

/// Cassettes by the name a test, `recorder replay` or the control API gives them in a recordings folder:
/// `NAME.json` (or `NAME` itself when it ends in `.json`) as one cassette, or every cassette below the folder
/// `NAME`. Below the sessions that find the folder, so that the control API can switch cassettes by name too.
enum NamedCassettes {
    /// The cassettes named `name` in `folder`, as read and prepared once, ready for a ``ReplayEngine``: read
    /// through ``CassetteFileCache/shared``, so a file is decoded again only when it has changed.
    /// - Throws: ``MockServerError``: `cassetteNotFound` when neither exists, a file code when a file cannot be read.
    static func loaded(named name: String, in folder: URL) throws -> [LoadedCassette] {
        let cache = CassetteFileCache.shared
        let fileName = name.hasSuffix(".json") ? name : name + ".json"
        let file = folder.appendingPathComponent(fileName)
        // A killed recording may have left only its capture log, which stands for the file.
        if FileManager.default.fileExists(atPath: file.path) || FileManager.default.fileExists(atPath: CaptureLog.url(for: file).path) {
            return [try cache.load(file)]
        }
        var isDirectory: ObjCBool = false
        let subfolder = folder.appendingPathComponent(name, isDirectory: true)
        if FileManager.default.fileExists(atPath: subfolder.path, isDirectory: &isDirectory), isDirectory.boolValue {
            var loaded: [LoadedCassette] = []
            for file in try Cassette.files(in: subfolder) {
                loaded.append(try cache.load(file))
            }
            return loaded
        }
        throw MockServerError(.cassetteNotFound, "no cassette named '\(name)' in \(folder.path) (looked for \(fileName) and the folder \(name))")
    }
}

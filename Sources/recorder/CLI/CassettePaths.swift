import Foundation
import MockServer

/// The cassette files that `PATH...` arguments name: files as given, folders as every `*.json` under them
/// (in ``Cassette/files(in:)`` order). Paths stay as typed, so messages name files the way the user did.
enum CassettePaths {
    /// One cassette file to work on, or a path that names nothing.
    enum Item {
        /// A file, or what was given as one.
        case file(URL)
        /// A path that is neither a file nor a folder; the sentence says so.
        case missing(path: String, sentence: String)
    }

    /// Expands `paths` in order.
    static func expand(_ paths: [String]) -> [Item] {
        var items: [Item] = []
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                // A recording killed before its first save left only its capture log, which loading applies.
                if FileManager.default.fileExists(atPath: path + ".log") {
                    items.append(.file(URL(fileURLWithPath: path, isDirectory: false)))
                    continue
                }
                items.append(.missing(path: path, sentence: "\(path): no such file or folder"))
                continue
            }
            guard isFolder.boolValue else {
                items.append(.file(URL(fileURLWithPath: path, isDirectory: false)))
                continue
            }
            do {
                items += try Cassette.files(in: URL(fileURLWithPath: path, isDirectory: true)).map(Item.file)
            } catch {
                items.append(.missing(path: path, sentence: error.description))
            }
        }
        return items
    }
}

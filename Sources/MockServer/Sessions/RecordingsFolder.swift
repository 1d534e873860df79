import Foundation

/// Finds cassettes by name in a project's `Recordings/` folder.
package enum RecordingsFolder {
    /// The variable that, when set, names the recordings folder instead of the nearest `Recordings/`.
    static let variable = "MOCKSERVER_RECORDINGS"

    /// The nearest `Recordings` folder at or above the folder of `filePath` (pass `#filePath` from a test);
    /// when no ancestor has one (the source tree is not on this device), the first shipped as a resource of
    /// `bundles` (see ``inResources(of:)``); else `nil`. The `MOCKSERVER_RECORDINGS` environment variable,
    /// when set, names the folder instead.
    package static func nearest(
        to filePath: String, environment: [String: String] = TestEnvironment.current,
        bundles: [Bundle] = Bundle.allBundles
    ) -> URL? {
        if let override = environment[variable], !override.isEmpty {
            return URL(fileURLWithPath: override, isDirectory: true)
        }
        var folder = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        for _ in 0..<64 {
            let candidate = folder.appendingPathComponent("Recordings", isDirectory: true)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), isDirectory.boolValue {
                return candidate
            }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { break }
            folder = parent
        }
        return inResources(of: bundles)
    }

    /// A `Recordings` folder shipped as a test resource, for a test running where its sources are not (an iOS
    /// device): at the top of a bundle's resources, or of a resource bundle among them, where SwiftPM puts a
    /// test target's `resources: [.copy("Recordings")]` (`PACKAGE_TARGET.bundle`). The first found, in order.
    static func inResources(of bundles: [Bundle]) -> URL? {
        for bundle in bundles {
            guard let resources = bundle.resourceURL else { continue }
            let nested = (try? FileManager.default.contentsOfDirectory(at: resources, includingPropertiesForKeys: nil)) ?? []
            let places = [resources] + nested.filter { $0.pathExtension == "bundle" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
            for place in places {
                let candidate = place.appendingPathComponent("Recordings", isDirectory: true)
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), isDirectory.boolValue {
                    return candidate
                }
            }
        }
        return nil
    }

    /// `folder` when given, else the folder ``nearest(to:environment:)`` finds for a test in `filePath`.
    /// - Throws: ``MockServerError`` (`cassetteNotFound`) when there is none, saying how to make one.
    package static func forTest(
        _ folder: URL?, filePath: String,
        environment: [String: String] = TestEnvironment.current
    ) throws(MockServerError) -> URL {
        if let folder = folder ?? nearest(to: filePath, environment: environment) { return folder }
        throw MockServerError(
            .cassetteNotFound,
            "no Recordings folder at or above \(filePath); create one (such as Recordings/ next to Package.swift), set \(variable) to a folder, or pass the folder with `in:`"
        )
    }

    /// The cassettes named `name` in `folder`: `NAME.json` (or `NAME` itself when it ends in `.json`) as one
    /// cassette, or every cassette below the folder `NAME`. Read through ``CassetteFileCache/shared``, so a
    /// file is decoded again only when it has changed.
    /// - Throws: ``MockServerError``: `cassetteNotFound` when neither exists, a file code when a file cannot be read.
    static func cassettes(named name: String, in folder: URL) throws -> [Cassette] {
        try NamedCassettes.loaded(named: name, in: folder).map(\.cassette)
    }
}

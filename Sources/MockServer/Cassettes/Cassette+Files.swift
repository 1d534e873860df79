import Foundation

extension Cassette {
    /// Loads the cassette stored at `url`, with every exchange of an interrupted recording: when a recorder was
    /// killed, the capture log it left beside the file (`NAME.json.log`) is applied, in memory only, if it
    /// belongs to this very file (see the article "Cassettes and HAR"); a log left by any other version of the file is
    /// ignored. A log without a file gives the cassette it started.
    ///
    /// Error messages name the file as given (`url.relativePath`, so a relative URL stays relative). Throws
    /// ``MockServerError``: `fileSystem` when the file cannot be read, and everything
    /// ``init(jsonData:source:)`` throws.
    public static func load(from url: URL) throws(MockServerError) -> Cassette {
        try loadApplyingLog(from: url).cassette
    }

    /// The cassette ``load(from:)`` gives, and the pending capture log's contents when there is one (a
    /// recording that appends to the file retires that log).
    static func loadApplyingLog(from url: URL) throws(MockServerError) -> (cassette: Cassette, log: CaptureLog.Contents?) {
        var interactions: [Interaction] = []
        let loaded = try read(from: url) { interactions.append($0) }
        var cassette = loaded.fields
        cassette.interactions = interactions
        return (cassette, loaded.log)
    }

    /// The one way a cassette file is read, whoever reads it (``load(from:)``, the servers' ``LoadedCassette``,
    /// a recording appending to the file): its fields decoded and checked, and each interaction handed to `body`
    /// in order as soon as it is decoded, followed by those a pending capture log beside the file adds when the
    /// log belongs to this very file (see ``CaptureLog``). Without a file, a log extending no file gives a
    /// cassette of its own. Returns the cassette's fields (no interactions) and the log's contents when there is a log.
    /// - Throws: ``MockServerError`` as ``load(from:)`` documents; `body` may have been given some interactions then.
    static func read(
        from url: URL, eachInteraction body: (Interaction) -> Void
    ) throws(MockServerError)
        -> (fields: Cassette, log: CaptureLog.Contents?)
    {
        let source = url.relativePath
        let logURL = CaptureLog.url(for: url)
        // Nearly always there is no log: the file streams straight to `body`.
        guard FileManager.default.fileExists(atPath: logURL.path), let log = CaptureLog.read(logURL) else {
            return (try decode(contents(of: url), source: source, eachInteraction: body), nil)
        }
        let data = FileManager.default.fileExists(atPath: url.path) ? try contents(of: url) : nil
        var fields: Cassette
        if let data {
            fields = try decode(data, source: source, eachInteraction: body)
        } else {
            fields = log.cassette
            fields.interactions.forEach(body)
            fields.interactions = []
        }
        guard let missing = log.missing(fromFileWithDigest: CaptureLog.digest(data)) else {
            // Not this file's log: nothing from it applies.
            if data == nil { _ = try contents(of: url) }  // throws the missing file's error
            return (fields, log)
        }
        missing.forEach(body)
        return (fields, log)
    }

    /// The bytes of the file at `url`; throws `fileSystem` naming it as ``load(from:)`` does.
    static func contents(of url: URL) throws(MockServerError) -> Data {
        do {
            return try Data(contentsOf: url)
        } catch {
            throw MockServerError(code: .fileSystem, file: url.relativePath, reason: "cannot read the file (\(Cassette.reason(of: error)))")
        }
    }

    /// Loads every cassette under `folder`: each `*.json` file at any depth, in the order of their paths
    /// (byte order, so the result is the same on every machine). Hidden files and folders (names starting
    /// with `.`) are skipped. Throws the first file's ``MockServerError``; use ``files(in:)`` and
    /// ``load(from:)`` to collect every file's error instead.
    public static func loadAll(from folder: URL) throws(MockServerError) -> [Cassette] {
        var cassettes: [Cassette] = []
        for file in try files(in: folder) {
            cassettes.append(try load(from: file))
        }
        return cassettes
    }

    /// The cassette files under `folder` in the order ``loadAll(from:)`` loads them; a `NAME.json` that a
    /// killed recording left only as its capture log `NAME.json.log` is listed too (``load(from:)`` reads it).
    /// Throws `fileSystem` when `folder` is missing or not a folder.
    public static func files(in folder: URL) throws(MockServerError) -> [URL] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw MockServerError(code: .fileSystem, file: folder.relativePath, reason: "no such folder")
        }
        let paths: [String]
        do {
            paths = try FileManager.default.subpathsOfDirectory(atPath: folder.path)
        } catch {
            throw MockServerError(code: .fileSystem, file: folder.relativePath, reason: "cannot list the folder (\(Cassette.reason(of: error)))")
        }
        // A capture log whose recorder was killed before it first wrote the cassette stands for that cassette.
        let cassettePaths = Set(
            paths.compactMap { path in
                path.hasSuffix(".json") ? path : path.hasSuffix(".json.log") ? String(path.dropLast(4)) : nil
            })
        return
            cassettePaths
            .filter { path in !path.split(separator: "/").contains { $0.hasPrefix(".") } }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            .map { folder.appendingPathComponent($0, isDirectory: false) }
            .filter { url in
                var isFolder: ObjCBool = false
                if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) { return !isFolder.boolValue }
                return FileManager.default.fileExists(atPath: CaptureLog.url(for: url).path)
            }
    }

    /// Writes the cassette to `url` atomically: the bytes of ``encoded()`` go to a temporary file in the same
    /// folder, which is flushed to disk and then moved into place, so readers see the old file or the new
    /// one, never a partial one, and a crash leaves at most a hidden `.NAME.*.tmp` file behind.
    ///
    /// Throws ``MockServerError`` `fileExists` when `url` exists and `overwrite` is false (checked atomically:
    /// a file appearing meanwhile is not replaced either), and `fileSystem` when the folder is missing or not
    /// writable or the disk is full; the temporary file is removed on every failure.
    public func save(to url: URL, overwrite: Bool = false) throws(MockServerError) {
        try AtomicFile.write(encoded(), to: url, overwrite: overwrite)
    }

    /// The system's words for a file error, as `strerror` gives them, rather than Foundation's generic sentence.
    static func reason(of error: any Error) -> String {
        // `as NSError`, not `as? NSError`: on Linux the underlying error is a `POSIXError` value, which only the
        // unconditional bridge turns into an NSError.
        if let cocoa = error as? CocoaError, let underlying = cocoa.userInfo[NSUnderlyingErrorKey] as? any Error {
            let system = underlying as NSError
            if system.domain == NSPOSIXErrorDomain, let code = POSIXErrorCode(rawValue: Int32(system.code)) {
                return String(cString: strerror(code.rawValue))
            }
        }
        // Foundation does not promise a POSIX error beneath: then the code's usual cause.
        if let cocoa = error as? CocoaError {
            switch cocoa.code {
            case .fileReadNoSuchFile, .fileNoSuchFile: return "No such file or directory"
            case .fileReadNoPermission, .fileWriteNoPermission: return "Permission denied"
            case .fileWriteFileExists: return "File exists"
            case .fileWriteVolumeReadOnly: return "Read-only file system"
            case .fileWriteOutOfSpace: return "No space left on device"
            default: break
            }
        }
        return error.localizedDescription
    }
}

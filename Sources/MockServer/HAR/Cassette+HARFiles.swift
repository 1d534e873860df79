import Foundation

extension Cassette {
    /// Converts the HAR 1.2 archive at `url` (a browser's, Charles', Proxyman's or mitmproxy's export, or one
    /// written by ``exportHAR(to:overwrite:)``) into a cassette, redacted with ``HARImportOptions/redaction``.
    /// Headers keep their order and repeats, bodies are stored decoded, and an archive this package wrote
    /// gives its cassette back exactly.
    ///
    /// Throws ``MockServerError``: `fileSystem` when the file cannot be read, `syntax` or `invalidField` naming the
    /// line or field a cassette cannot hold, `multipleHosts` when entries are for several upstreams and
    /// ``HARImportOptions/host`` chooses none, `noMatchingHost` when no entry is for the chosen host.
    public static func importing(harFile url: URL, options: HARImportOptions = HARImportOptions()) throws(MockServerError) -> HARImport {
        try importing(HARDocument.load(from: url), options: options)
    }

    /// Writes this cassette to `url` as a HAR 1.2 archive, one entry per interaction, atomically; what HAR
    /// has no place for goes to the log's `_servicereplay` object so that importing it gives this cassette back.
    ///
    /// Throws ``MockServerError``: `noUpstream` when the cassette names no upstream, `fileExists` when `url` exists
    /// and `overwrite` is false (the file is left untouched), `fileSystem` when the folder is not writable.
    public func exportHAR(to url: URL, overwrite: Bool = false) throws(MockServerError) {
        try har().save(to: url, overwrite: overwrite)
    }
}

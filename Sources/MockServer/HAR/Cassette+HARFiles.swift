import Foundation

extension Cassette {
    /// Converts the HAR 1.2 archive at `url` (a browser's, Charles', Proxyman's or mitmproxy's export, or one
    /// written by ``exportHAR(to:overwrite:)``) into a cassette. Headers keep their order and repeats, bodies
    /// are stored decoded, and an archive this package wrote gives its cassette back exactly.
    ///
    /// - Parameters:
    ///   - url: the `.har` file to read.
    ///   - name: the cassette's name; `nil` (the default) keeps the name an exported cassette carries, else
    ///     `imported`.
    ///   - host: import only the entries for this host (`api.example.com`, `api.example.com:8443` or
    ///     `https://api.example.com`) and skip the rest; `nil` (the default) requires every entry to share one
    ///     upstream.
    ///   - redaction: applied to every request, response and error template, so that secrets in a browser's
    ///     archive never reach the cassette; default ``RedactionRules/default``.
    ///
    /// Throws ``MockServerError``: `fileSystem` when the file cannot be read, `syntax` or `invalidField` naming the
    /// line or field a cassette cannot hold, `multipleHosts` when entries are for several upstreams and `host`
    /// chooses none, `noMatchingHost` when no entry is for the chosen host.
    public init(harFile url: URL, name: String? = nil, host: String? = nil, redaction: RedactionRules = .default) throws(MockServerError) {
        let options = HARImportOptions(name: name, host: host, redaction: redaction)
        self = try Cassette.importing(HARDocument.load(from: url), options: options).cassette
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

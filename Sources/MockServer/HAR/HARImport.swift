/// What an import produced, with what it left out or changed on the way.
package struct HARImport: Sendable, Hashable {
    /// The cassette.
    package var cassette: Cassette
    /// How many entries were skipped because they were for another host than ``HARImportOptions/host``.
    package var skippedEntries: Int
    /// What redaction replaced.
    package var redacted: RedactionCount

    /// Creates a result.
    init(cassette: Cassette, skippedEntries: Int, redacted: RedactionCount) {
        self.cassette = cassette
        self.skippedEntries = skippedEntries
        self.redacted = redacted
    }
}

/// How ``Cassette/importing(_:options:)`` (and ``Cassette/init(harFile:name:host:redaction:)``) turns a HAR archive into a cassette.
package struct HARImportOptions: Sendable, Hashable {
    /// The cassette's name; `nil` keeps the name an exported cassette carries, else `imported`.
    var name: String?
    /// Import only the entries for this host (`api.example.com`, `api.example.com:8443` or
    /// `https://api.example.com`) and skip the rest; `nil` requires every entry to share one upstream.
    package var host: String?
    /// The redaction applied to every request, response and error template (default:
    /// ``RedactionRules/default``), so that secrets in a browser's archive never reach the cassette.
    var redaction: RedactionRules

    /// Creates options; by default the name comes from the archive, every entry is kept and the default
    /// redaction applies.
    package init(name: String? = nil, host: String? = nil, redaction: RedactionRules = .default) {
        self.name = name
        self.host = host
        self.redaction = redaction
    }
}

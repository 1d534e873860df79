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

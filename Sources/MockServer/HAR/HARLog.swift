/// The `log` object of a HAR document.
package struct HARLog: Codable, Sendable, Hashable {
    /// The HAR version; this package writes `"1.2"` and reads 1.1 and 1.2.
    var version: String
    /// The program that wrote the archive.
    var creator: HARCreator
    /// The exchanges in order.
    var entries: [HAREntry]
    /// A free-text comment; cassettes exported by this package keep their note here.
    var comment: String?
    /// What a cassette holds beyond HAR (`_servicereplay`): written by ``Cassette/har()`` so that importing
    /// the file again restores the cassette exactly; absent in archives from other programs.
    package var cassette: HARCassetteMetadata?

    enum CodingKeys: String, CodingKey {
        case version, creator, entries, comment
        case cassette = "_servicereplay"
    }

    /// Creates a log.
    init(
        version: String = "1.2", creator: HARCreator, entries: [HAREntry], comment: String? = nil,
        cassette: HARCassetteMetadata? = nil
    ) {
        self.version = version
        self.creator = creator
        self.entries = entries
        self.comment = comment
        self.cassette = cassette
    }
}

/// The `creator` object: name and version of the writing program.
package struct HARCreator: Codable, Sendable, Hashable {
    /// Program name.
    var name: String
    /// Program version.
    var version: String

    /// Creates a creator record.
    init(name: String, version: String) {
        self.name = name
        self.version = version
    }

    /// This package, as it signs the archives it writes.
    static let serviceReplay = HARCreator(name: "ServiceReplay", version: "0.1.0")
}

/// A `{name, value}` pair, used by HAR for headers, query strings and cookies.
package struct HARNameValue: Codable, Sendable, Hashable {
    /// The name.
    var name: String
    /// The value.
    var value: String

    /// Creates a pair.
    init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

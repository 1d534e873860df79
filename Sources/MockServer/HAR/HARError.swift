import Foundation

/// Why a HAR archive could not be read, converted or written. Its ``description`` is one sentence naming
/// the file (when known), the entry (0-based, as in `log.entries[N]`) and what is wrong:
/// `traffic.har: entry 3: response.content.encoding "gzip" is not supported; only base64 is`.
public struct HARError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// The family of failure (an open set).
    public struct Code: Sendable, Hashable, RawRepresentable, CustomStringConvertible {
        /// The code's name.
        public let rawValue: String
        /// Creates a code.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The name.
        public var description: String { rawValue }

        /// The file is not valid JSON.
        public static let syntax = Code(rawValue: "syntax")
        /// A field is missing, has the wrong type, or holds a value a cassette cannot take.
        public static let invalidField = Code(rawValue: "invalidField")
        /// Entries are for more than one upstream and no host was chosen.
        public static let multipleHosts = Code(rawValue: "multipleHosts")
        /// A host was chosen and no entry is for it.
        public static let noMatchingHost = Code(rawValue: "noMatchingHost")
        /// The cassette names no upstream, so its requests have no absolute URL.
        public static let noUpstream = Code(rawValue: "noUpstream")
        /// Saving would replace an existing file and `overwrite` was false.
        public static let fileExists = Code(rawValue: "fileExists")
        /// The file system refused (missing file, permissions, disk full).
        public static let fileSystem = Code(rawValue: "fileSystem")
    }

    /// The family of failure.
    public let code: Code
    /// The file, when the error came from reading or writing one; else `nil`.
    public let file: String?
    /// The entry's index when the problem is inside one, else `nil`.
    public let entry: Int?
    /// What is wrong, without the location prefix.
    public let reason: String

    /// Creates an error; the description is assembled from the parts.
    public init(code: Code, file: String? = nil, entry: Int? = nil, reason: String) {
        self.code = code
        self.file = file
        self.entry = entry
        self.reason = reason
    }

    /// The same error, located in `file`.
    public func located(in file: String) -> HARError {
        HARError(code: code, file: file, entry: entry, reason: reason)
    }

    /// `[FILE: ][entry N: ]REASON`.
    public var description: String {
        var text = file.map { $0 + ": " } ?? ""
        if let entry { text += "entry \(entry): " }
        return text + reason
    }

    /// The same sentence as ``description``.
    public var errorDescription: String? { description }
}

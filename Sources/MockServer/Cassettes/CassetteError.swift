import Foundation

/// Why a cassette could not be read or written. Its ``description`` is one sentence naming the file and,
/// when it applies, the interaction index and the field:
/// `Recordings/github/users.json: interaction 3: response.status: expected an integer, found a string`.
public struct CassetteError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// The family of failure, for code that reacts differently to each (an open set).
    public struct Code: Sendable, Hashable, RawRepresentable, CustomStringConvertible {
        /// The code's name.
        public let rawValue: String
        /// Creates a code.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The name.
        public var description: String { rawValue }

        /// The file is not valid JSON; the message names the line and column.
        public static let syntax = Code(rawValue: "syntax")
        /// The file is JSON but not a ServiceReplay cassette (missing or different `format`).
        public static let notACassette = Code(rawValue: "notACassette")
        /// The cassette's version is newer than this code reads.
        public static let unsupportedVersion = Code(rawValue: "unsupportedVersion")
        /// A field is missing, unknown or has the wrong type or value.
        public static let invalidField = Code(rawValue: "invalidField")
        /// Saving would replace an existing file and `overwrite` was false.
        public static let fileExists = Code(rawValue: "fileExists")
        /// The file system refused (missing file, permissions, disk full).
        public static let fileSystem = Code(rawValue: "fileSystem")
    }

    /// The family of failure.
    public let code: Code
    /// The file as it was named to the loader or saver, or the source name given for in-memory data.
    public let file: String
    /// The interaction's index when the problem is inside one, else `nil`.
    public let interaction: Int?
    /// The field's path inside the cassette or the interaction (`response.status`), or `nil`.
    public let field: String?
    /// What is wrong, without the location prefix.
    public let reason: String

    /// Creates an error; the description is assembled from the parts.
    public init(code: Code, file: String, interaction: Int? = nil, field: String? = nil, reason: String) {
        self.code = code
        self.file = file
        self.interaction = interaction
        self.field = field
        self.reason = reason
    }

    /// `FILE: [interaction N: ][FIELD: ]REASON`.
    public var description: String {
        var text = file + ": "
        if let interaction { text += "interaction \(interaction): " }
        if let field, !field.isEmpty { text += field + ": " }
        return text + reason
    }

    /// The same sentence as ``description``.
    public var errorDescription: String? { description }
}

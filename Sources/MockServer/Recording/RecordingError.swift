import Foundation

/// Why recording could not start or a recorded exchange could not be saved. ``message`` is one sentence a
/// person can act on; ``code`` lets code react to the family of failure.
public struct RecordingError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// The family of failure (an open set).
    public struct Code: Sendable, Hashable, RawRepresentable, CustomStringConvertible {
        /// The code's name.
        public let rawValue: String
        /// Creates a code.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The name.
        public var description: String { rawValue }

        /// The upstream URL is not an http or https base URL.
        public static let invalidUpstream = Code(rawValue: "invalidUpstream")
        /// A mode other than replay was chosen without ``RecordingOptions``.
        public static let missingOptions = Code(rawValue: "missingOptions")
        /// Record mode was asked to write a cassette file that already exists.
        public static let cassetteExists = Code(rawValue: "cassetteExists")
        /// The cassette file to append to cannot be read as a cassette.
        public static let unreadableCassette = Code(rawValue: "unreadableCassette")
        /// The cassette file to append to was recorded from another upstream.
        public static let differentUpstream = Code(rawValue: "differentUpstream")
        /// Writing the cassette file failed (folder missing and not creatable, permissions, disk full).
        public static let cannotSave = Code(rawValue: "cannotSave")
    }

    /// The family of failure.
    public let code: Code
    /// What went wrong, in one sentence.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The same as ``message``.
    public var description: String { message }

    /// The same as ``message``.
    public var errorDescription: String? { message }
}

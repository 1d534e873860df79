import Foundation

/// Everything MockServer throws: a cassette or HAR file that cannot be read or written, a recording that
/// cannot start or save, a fault plan that cannot be used, a server that cannot listen, a failed journal or
/// strict-mode verification.
///
/// Its ``description`` (also `localizedDescription`) is one sentence a person can act on, located as
/// precisely as is known: `FILE: [interaction N: | entry N: ][FIELD: ]REASON`, for instance
/// `Recordings/github/users.json: interaction 3: response.status: expected an integer, found a string`.
/// Verification failures add one line per offending request. Code that reacts to a kind of failure compares
/// ``code``.
public struct MockServerError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// The kind of failure: an open set of names, compared with `==`.
    public struct Code: Sendable, Hashable, RawRepresentable, CustomStringConvertible {
        /// The code's name.
        public let rawValue: String
        /// Creates a code.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The name.
        public var description: String { rawValue }

        // Files: cassettes and HAR archives.
        /// The file is not valid JSON; the reason names the line and column.
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
        /// No cassette of that name in the recordings folder, or no recordings folder at all.
        public static let cassetteNotFound = Code(rawValue: "cassetteNotFound")

        // HAR conversion.
        /// A HAR archive's entries are for several upstreams and no host was chosen.
        public static let multipleHosts = Code(rawValue: "multipleHosts")
        /// No entry of a HAR archive is for the chosen host.
        public static let noMatchingHost = Code(rawValue: "noMatchingHost")
        /// A cassette names no upstream, so its requests have no URL for HAR.
        public static let noUpstream = Code(rawValue: "noUpstream")

        // Recording.
        /// The upstream is not an absolute `http` or `https` URL with a host.
        public static let invalidUpstream = Code(rawValue: "invalidUpstream")
        /// A forwarding mode was configured without ``RecordingOptions``.
        public static let missingOptions = Code(rawValue: "missingOptions")
        /// `record` mode was given a cassette file that exists; recording never replaces one.
        public static let cassetteExists = Code(rawValue: "cassetteExists")
        /// A record mode, environment variable or option that cannot be used; the reason names it.
        public static let invalidConfiguration = Code(rawValue: "invalidConfiguration")
        /// The cassette file to append to cannot be read.
        public static let unreadableCassette = Code(rawValue: "unreadableCassette")
        /// The cassette file to append to was recorded from another upstream.
        public static let differentUpstream = Code(rawValue: "differentUpstream")
        /// The recorded cassette could not be saved (it stays in memory).
        public static let cannotSave = Code(rawValue: "cannotSave")
        /// While recording, the upstream could not be reached (refused, unknown host, no TLS agreement, or the
        /// connection lost before any byte of an answer), so nothing was recorded for those requests.
        public static let upstreamUnreachable = Code(rawValue: "upstreamUnreachable")
        /// While recording, the upstream sent nothing for the recorder's timeout (``RecordingOptions/timeout``),
        /// so nothing was recorded for those requests: the limit was the recorder's, not the upstream's answer.
        public static let upstreamTimedOut = Code(rawValue: "upstreamTimedOut")
        /// The upstream's response body could not be decoded from its `Content-Encoding`: the coding is not
        /// one the recorder decodes, the data is corrupt or truncated, or the decoded body is over the limit.
        public static let undecodableBody = Code(rawValue: "undecodableBody")

        // Faults.
        /// A fault rule, plan file or `MOCKSERVER_FAULTS`/`MOCKSERVER_SEED` value that cannot be used.
        public static let invalidFaultPlan = Code(rawValue: "invalidFaultPlan")

        // Verification.
        /// A journal assertion failed; the description lists the relevant requests.
        public static let assertionFailed = Code(rawValue: "assertionFailed")
        /// Requests went unmatched in strict mode; the description lists each near miss.
        public static let unmatchedRequests = Code(rawValue: "unmatchedRequests")

        // The server.
        /// The configured host is not a numeric IPv4 or IPv6 address or `localhost`.
        public static let invalidHost = Code(rawValue: "invalidHost")
        /// The socket could not be created, bound or put into listening state (port in use, ...), or not
        /// even one event loop could start to serve from it (out of descriptors).
        public static let cannotListen = Code(rawValue: "cannotListen")
        /// The server is not running, so there is nothing to route requests to.
        public static let notRunning = Code(rawValue: "notRunning")
        /// The server was started after it was stopped; a server runs once.
        public static let stopped = Code(rawValue: "stopped")
    }

    /// The kind of failure.
    public let code: Code
    /// The file the failure is about, as it was named (or the source name given for in-memory data), else `nil`.
    public let file: String?
    /// The cassette interaction's index when the problem is inside one, else `nil`.
    public let interaction: Int?
    /// The HAR entry's index when the problem is inside one, else `nil`.
    public let entry: Int?
    /// The field's path (`response.status`, `log.entries[3].request.url`), else `nil`.
    public let field: String?
    /// What is wrong, without the location prefix.
    public let reason: String

    /// An error located as precisely as the thrower knows.
    package init(code: Code, file: String? = nil, interaction: Int? = nil, entry: Int? = nil, field: String? = nil, reason: String) {
        self.code = code
        self.file = file
        self.interaction = interaction
        self.entry = entry
        self.field = field
        self.reason = reason
    }

    /// An error that is about no file: the reason is the whole sentence.
    package init(_ code: Code, _ reason: String) {
        self.init(code: code, reason: reason)
    }

    /// `[FILE: ][interaction N: ][entry N: ][FIELD: ]REASON`.
    public var description: String {
        var text = file.map { $0 + ": " } ?? ""
        if let interaction { text += "interaction \(interaction): " }
        if let entry { text += "entry \(entry): " }
        if let field, !field.isEmpty { text += field + ": " }
        return text + reason
    }

    /// The same sentence as ``description``.
    public var errorDescription: String? { description }

    /// The same error, located in `file`.
    package func located(in file: String) -> MockServerError {
        MockServerError(code: code, file: file, interaction: interaction, entry: entry, field: field, reason: reason)
    }

    /// The same error with `context` (such as a fault spec or a plan file) in front of the reason.
    package func prefixed(_ context: String) -> MockServerError {
        MockServerError(code: code, file: file, interaction: interaction, entry: entry, field: field, reason: "\(context): \(reason)")
    }
}

import Foundation

/// Which parts of recorded exchanges are secrets, and what replaces them: the one verdict that recording,
/// `recorder redact` and `recorder lint` share, so that whatever `lint` flags, `redact` replaces, and a fresh
/// recording holds neither.
///
/// Header names and field names are compared case-insensitively, with `-` and `_` treated alike
/// (`X-Api-Key` = `x_api_key`). Fields are query parameters, form fields and JSON object keys at any
/// depth, in requests and responses alike. Besides names, the default rules judge a value by its format
/// (a JSON Web Token, a well-known service's key, a long random string), except under the name of an
/// identifier or a cursor (such as S3's `UploadId` or `NextContinuationToken`). A project adds names and
/// allows values in its rules file beside its cassettes, `.servicereplay.json` (see the article "Cassettes and
/// HAR"), which recordings made from tests and `recorder` read.
public struct RedactionRules: Sendable, Hashable {
    /// The text that replaces a secret: `<redacted>`, the cassette's ``Cassette/redactionPlaceholder``,
    /// which matching treats as "any value" on replay.
    public static let placeholder = Cassette.redactionPlaceholder

    /// Header names always redacted by default.
    public static let defaultHeaders: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key", "x-auth-token",
        "x-access-token", "x-amz-security-token", "x-csrf-token", "x-xsrf-token",
    ]

    /// Field names redacted by default in queries, form bodies and JSON bodies; among them the signature and
    /// credential parameters of presigned URLs (AWS `X-Amz-Signature`, Google `X-Goog-Signature`, Azure `sig`,
    /// CloudFront `Signature`), normalised like every field name (`x_amz_signature`).
    public static let defaultFields: Set<String> = Set([
        "access_token", "refresh_token", "id_token", "token", "api_key", "apikey", "password", "passwd",
        "client_secret", "client_assertion", "secret", "x_amz_credential", "x_goog_credential",
    ]).union(PresignedQuery.signingTimes.keys.map(normalisedField))

    /// Endings that make a field name a secret's under the default rules, compared on the name in lower case
    /// without `-` and `_`: `session_token`, `csrfToken`, `client_secret`, `new_password`, `x-api-key`.
    static let secretFieldEndings = ["token", "secret", "password", "passwd", "apikey", "secretkey", "privatekey"]

    /// Parts of a header name that make it a credential header under the default rules.
    static let secretHeaderParts = ["api-key", "apikey", "secret", "auth-token", "access-token"]

    /// Header names to redact, normalised (lower case, `_` as `-`).
    public private(set) var headers: Set<String>
    /// Field names to redact, normalised (lower case, `-` as `_`).
    public private(set) var fields: Set<String>
    /// Where each name beyond the built-in ones was given, by its name normalised as a field: what `lint` says
    /// of a value it makes secret, and why it wins over `allow`.
    private(set) var sources: [String: SecretRule.Source] = [:]
    /// JSON paths whose values are secrets (`$.user.pin`, `$.items[*].key`), from a rules file.
    private(set) var paths: Set<String> = []
    /// What a rules file allows: names (normalised as fields), JSON paths and whole values.
    private(set) var allowedNames: Set<String> = []
    private(set) var allowedPaths: Set<String> = []
    private(set) var allowedValues: Set<String> = []
    /// Whether these are the default rules or more: only then do header names widen by ``secretHeaderParts``,
    /// field names by ``secretFieldEndings``, and values count by their format. `none` and custom sets stay exact.
    private(set) var widens: Bool

    /// Rules redacting `headers` and `fields` exactly, in addition to nothing; when they hold
    /// ``defaultHeaders``, they also widen as ``default`` does.
    public init(headers: Set<String>, fields: Set<String>) {
        self.headers = Set(headers.map(Self.normalisedHeader))
        self.fields = Set(fields.map(Self.normalisedField))
        widens = !headers.isEmpty && self.headers.isSuperset(of: Self.defaultHeaders)
        for name in self.headers.subtracting(Self.defaultHeaders) { sources[Self.normalisedField(name)] = .code }
        for name in self.fields.subtracting(Self.defaultFields) { sources[name] = .code }
    }

    /// The default rules: ``defaultHeaders`` plus any header whose name contains `api-key`, `apikey`,
    /// `secret`, `auth-token` or `access-token`; ``defaultFields`` plus any field whose name ends in `token`,
    /// `secret`, `password`, `passwd`, `apikey`, `secretkey` or `privatekey` (ignoring case, `-` and `_`); and
    /// values that look like credentials (see the article "Cassettes and HAR"). Names of identifiers and cursors
    /// are never secrets by name (`UploadId`, `NextContinuationToken`, `_token`, `cursor`, `next_page_token`).
    public static let `default` = RedactionRules(headers: defaultHeaders, fields: defaultFields)

    /// No redaction at all.
    public static let none = RedactionRules(headers: [], fields: [])

    /// These rules plus more header and field names.
    public func adding(headers more: [String] = [], fields moreFields: [String] = []) -> RedactionRules {
        adding(headers: more, fields: moreFields, source: .code)
    }

    /// These rules plus more header and field names, given by `source` (what `lint` says of their values).
    package func adding(headers more: [String] = [], fields moreFields: [String] = [], source: SecretRule.Source) -> RedactionRules {
        var copy = self
        for name in more {
            copy.headers.insert(Self.normalisedHeader(name))
            copy.sources[Self.normalisedField(name)] = source
        }
        for name in moreFields {
            copy.fields.insert(Self.normalisedField(name))
            copy.sources[Self.normalisedField(name)] = source
        }
        return copy
    }

    /// These rules plus a project's: its `redact` names for headers and fields alike, its `redact` paths, and
    /// what it allows.
    package func adding(_ project: ProjectRules) -> RedactionRules {
        let names = project.redact.filter { !ProjectRules.isPath($0) }
        var copy = adding(headers: names, fields: names, source: .rulesFile)
        for entry in project.redact where ProjectRules.isPath(entry) { copy.paths.insert(entry) }
        for entry in project.allow {
            if ProjectRules.isPath(entry) { copy.allowedPaths.insert(entry) }
            copy.allowedNames.insert(Self.normalisedField(entry))
            copy.allowedValues.insert(entry)
        }
        return copy
    }

    /// Whether a header with this name holds a secret: a name in ``headers``, or under the default rules one
    /// containing `api-key`, `apikey`, `secret`, `auth-token` or `access-token`; never an identifier's (such as
    /// `X-Request-Id`), nor one a rules file allows, unless it was named on purpose.
    public func redactsHeader(_ name: String) -> Bool {
        rule(forName: name, header: true) != nil
    }

    /// Whether a query parameter, form field or JSON key with this name holds a secret: a name in
    /// ``fields`` or, under the default rules, one ending as a secret's does (`session_token`), or exactly the
    /// name of a redacted header (an API echoing `{"Authorization": ...}`); never an identifier's or a
    /// cursor's (`UploadId`, `NextContinuationToken`), nor one a rules file allows, unless it was named on
    /// purpose.
    public func redactsField(_ name: String) -> Bool {
        rule(forName: name, header: false) != nil
    }

    static func normalisedHeader(_ name: String) -> String {
        name.lowercased().replacingOccurrences(of: "_", with: "-")
    }

    static func normalisedField(_ name: String) -> String {
        name.lowercased().replacingOccurrences(of: "-", with: "_")
    }
}

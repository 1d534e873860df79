import Foundation

/// Which parts of recorded exchanges are secrets, and what replaces them.
///
/// Header names and field names are compared case-insensitively, with `-` and `_` treated alike
/// (`X-Api-Key` = `x_api_key`). Fields are query parameters, form fields and JSON object keys at any
/// depth, in requests and responses alike.
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

    /// Header names to redact, normalised (lower case, `_` as `-`).
    public private(set) var headers: Set<String>
    /// Field names to redact, normalised (lower case, `-` as `_`).
    public private(set) var fields: Set<String>

    /// Rules redacting `headers` and `fields` exactly, in addition to nothing.
    public init(headers: Set<String>, fields: Set<String>) {
        self.headers = Set(headers.map(Self.normalisedHeader))
        self.fields = Set(fields.map(Self.normalisedField))
    }

    /// The default rules: ``defaultHeaders`` plus any header whose name contains `api-key`, `apikey`,
    /// `secret`, `auth-token` or `access-token`, and ``defaultFields``.
    public static let `default` = RedactionRules(headers: defaultHeaders, fields: defaultFields)

    /// No redaction at all.
    public static let none = RedactionRules(headers: [], fields: [])

    /// These rules plus more header and field names.
    public func adding(headers more: [String] = [], fields moreFields: [String] = []) -> RedactionRules {
        var copy = self
        copy.headers.formUnion(more.map(Self.normalisedHeader))
        copy.fields.formUnion(moreFields.map(Self.normalisedField))
        return copy
    }

    /// Whether a header with this name holds a secret.
    public func redactsHeader(_ name: String) -> Bool {
        let normalised = Self.normalisedHeader(name)
        if headers.contains(normalised) { return true }
        // Only the default rules widen by substring; `none` and custom sets stay exact.
        guard !headers.isEmpty, headers.isSuperset(of: Self.defaultHeaders) else { return false }
        return ["api-key", "apikey", "secret", "auth-token", "access-token"].contains { normalised.contains($0) }
    }

    /// Whether a query parameter, form field or JSON key with this name holds a secret: a name in
    /// ``fields``, or exactly the name of a redacted header (an API echoing `{"Authorization": ...}`).
    public func redactsField(_ name: String) -> Bool {
        fields.contains(Self.normalisedField(name)) || headers.contains(Self.normalisedHeader(name))
    }

    static func normalisedHeader(_ name: String) -> String {
        name.lowercased().replacingOccurrences(of: "_", with: "-")
    }

    static func normalisedField(_ name: String) -> String {
        name.lowercased().replacingOccurrences(of: "-", with: "_")
    }
}

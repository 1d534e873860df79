/// The query of a presigned URL carries, besides its signature, when it was signed and for how long; a URL
/// presigned afresh at replay time differs from the recorded one there. When the recorded signature was
/// redacted (it is by default) those parameters are compared like the signature: any value, but present.
enum PresignedQuery {
    /// Per signature parameter, the parameters signed with it that change whenever a URL is signed again:
    /// AWS Signature Version 4, Google Cloud Storage V4, Azure shared access signatures (user delegation keys
    /// too), and the older `Signature`/`Expires` of AWS Signature Version 2, CloudFront and Cloud Storage V2.
    /// Its keys are the one list of signature parameter names: ``RedactionRules/defaultFields`` redacts them.
    static let signingTimes: [String: [String]] = [
        "X-Amz-Signature": ["X-Amz-Date", "X-Amz-Expires"],
        "X-Goog-Signature": ["X-Goog-Date", "X-Goog-Expires"],
        "sig": ["st", "se", "skt", "ske"],
        "Signature": ["Expires"],
    ]

    /// `fields` (a recorded query) with the signing times of each redacted signature replaced by the redaction
    /// placeholder.
    static func wildcardingSigningTimes(_ fields: [FormField]) -> [FormField] {
        // Most recorded queries hold no placeholder: one pass finds that out.
        var wildcarded: Set<String> = []
        for field in fields where field.value == Cassette.redactionPlaceholder {
            if let names = signingTimes[field.name] { wildcarded.formUnion(names) }
        }
        guard !wildcarded.isEmpty else { return fields }
        return fields.map { wildcarded.contains($0.name) ? FormField(name: $0.name, value: Cassette.redactionPlaceholder) : $0 }
    }
}

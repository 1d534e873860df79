extension NearMiss {
    /// This near miss as the control API shows it: the received target redacted as a cassette holds it, and
    /// the received value of each difference at a secret's place (a query parameter, form field, multipart
    /// part, JSON key or header that `rules` redact) replaced by the placeholder. Recorded values come from
    /// the cassettes, which were redacted when recorded.
    func redacted(by rules: RedactionRules) -> NearMiss {
        NearMiss(
            method: method, target: rules.redact(target: target), operations: operations, closest: closest,
            differences: differences.map { $0.redacted(by: rules) }, usedUp: usedUp)
    }
}

extension RequestDifference {
    /// This difference with its received value hidden when its location names a secret (see
    /// ``NearMiss/redacted(by:)``); a difference in the whole body has its URL-style parameters redacted.
    func redacted(by rules: RedactionRules) -> RequestDifference {
        guard let received else { return self }
        let hidden: String
        if location == "body" {
            hidden = rules.redactingURLParameters(in: received).text
        } else if locationNamesASecret(to: rules) {
            hidden = "\"\(RedactionRules.placeholder)\""
        } else {
            return self
        }
        return RequestDifference(location, recorded: recorded, received: hidden, weight: weight)
    }

    /// Whether the location names a field or header `rules` redact.
    private func locationNamesASecret(to rules: RedactionRules) -> Bool {
        for prefix in ["query ", "form field ", "part "] where location.hasPrefix(prefix) {
            let name = location.dropFirst(prefix.count).split(separator: " ", maxSplits: 1).first.map(String.init) ?? ""
            return rules.redactsField(name)
        }
        if location.hasPrefix("header ") {
            return rules.redactsHeader(String(location.dropFirst("header ".count)))
        }
        if location.hasPrefix("$") {
            // `$.user.token`, `$.items[3].secret`, `$["api key"]`: the last key named.
            let lastKey = location.split(separator: ".").last.map { $0.split(separator: "[").first.map(String.init) ?? "" } ?? ""
            return rules.redactsField(lastKey)
        }
        return false
    }
}

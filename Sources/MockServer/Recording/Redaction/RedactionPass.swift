import Foundation

/// One walk of redaction over exchanges: it asks the verdict of ``RedactionRules`` for every value, replaces
/// each secret by the placeholder, and keeps what it did: the counts `recorder redact` prints, a
/// ``SecretFinding`` per value replaced (what `recorder lint` reports, so that the two never disagree), and
/// the secret values a request carried, which its response must not repeat.
///
/// Headers are replaced whole (`Cookie` and `Set-Cookie` keep each cookie's name and attributes), query and
/// form values one by one, JSON values member by member; in any other header value and in text, only the
/// values of secret URL parameters (see ``URLParametersInText``) and words of a precise credential format.
struct RedactionPass {
    /// Which message a value is in, as findings name it.
    enum Side: String {
        case request, response
    }

    /// A secret value of a request as a response may repeat it, and where the request held it.
    struct Echo: Sendable, Hashable {
        /// One spelling of the value (see ``RedactionRules/echoSpellings(of:)``).
        let spelling: String
        /// Where the request held it: `request query token`.
        let location: String
    }

    let rules: RedactionRules
    /// What was replaced, by place.
    var count = RedactionCount()
    /// One per value replaced, in the order met.
    var findings: [SecretFinding] = []
    /// The secret values replaced in requests, as written (and, for queries and forms, decoded too), with
    /// where each was.
    var requestSecrets: [(value: String, location: String)] = []

    /// The rule for each name met so far, by name and whether it was a header's: a body names the same keys
    /// again and again.
    private var nameRules: [NameKey: SecretRule?] = [:]

    private struct NameKey: Hashable {
        let name: String
        let header: Bool
    }

    init(_ rules: RedactionRules) {
        self.rules = rules
    }

    /// ``RedactionRules/rule(forName:header:)``, asked once per name in a pass.
    mutating func rule(forName name: String, header: Bool) -> SecretRule? {
        let key = NameKey(name: name, header: header)
        if let known = nameRules[key] { return known }
        let rule = rules.rule(forName: name, header: header)
        nameRules[key] = rule
        return rule
    }

    static let placeholder = RedactionRules.placeholder

    mutating func found(_ location: String, _ rule: SecretRule) {
        findings.append(SecretFinding(location: location, rule: rule))
    }

    mutating func keep(_ value: String, at location: String, side: Side) {
        if side == .request { requestSecrets.append((value, location)) }
    }

    // MARK: Headers

    /// `headers` with every secret value replaced; each line that changed counts once.
    mutating func redact(_ headers: HTTPHeaders, side: Side) -> HTTPHeaders {
        var changed = false
        let lines = headers.lines.map { line -> HTTPHeader in
            let redacted = redact(line, side: side)
            if redacted.value != line.value {
                count.headers += 1
                changed = true
            }
            return redacted
        }
        return changed ? HTTPHeaders(lines) : headers
    }

    private mutating func redact(_ line: HTTPHeader, side: Side) -> HTTPHeader {
        let location = "\(side.rawValue) header \(line.name)"
        let kind = RedactionRules.normalisedHeader(line.name)
        if kind == "cookie" || kind == "set-cookie", let rule = rules.rule(forName: line.name, header: true) {
            let value =
                kind == "cookie" ? redactCookies(line.value, location: location, side: side) : redactSetCookie(line.value, location: location, side: side)
            if value != line.value { found(location, rule) }
            return HTTPHeader(name: line.name, value: value)
        }
        if let rule = rules.verdict(on: line.value, name: line.name, header: true, guessing: side == .request) {
            found(location, rule)
            keep(line.value, at: location, side: side)
            // `Bearer TOKEN` is repeated as `TOKEN` as often as whole.
            if let space = line.value.firstIndex(of: " ") { keep(String(line.value[line.value.index(after: space)...]), at: location, side: side) }
            return HTTPHeader(name: line.name, value: Self.placeholder)
        }
        return HTTPHeader(name: line.name, value: redactText(line.value, location: location, side: side, words: false))
    }

    /// `a=1; b=2` with every value that is not empty, the placeholder or allowed replaced; written `a=<redacted>;
    /// b=<redacted>` when one was, else kept as it was.
    private mutating func redactCookies(_ text: String, location: String, side: Side) -> String {
        var changed = false
        let pieces = text.split(separator: ";").map { piece -> String in
            let trimmed = piece.trimmingCharacters(in: .whitespaces)
            guard let equals = trimmed.firstIndex(of: "=") else { return trimmed }
            let name = String(trimmed[..<equals]), value = String(trimmed[trimmed.index(after: equals)...])
            guard !value.isEmpty, !value.contains(Self.placeholder), !rules.isAllowed(value: value, name: name, path: nil) else { return trimmed }
            changed = true
            keep(value, at: location, side: side)
            return "\(name)=\(Self.placeholder)"
        }
        return changed ? pieces.joined(separator: "; ") : text
    }

    /// `name=value; Path=/; HttpOnly` → `name=<redacted>; Path=/; HttpOnly`.
    private mutating func redactSetCookie(_ text: String, location: String, side: Side) -> String {
        let parts = text.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
        let first = redactCookies(String(parts[0]), location: location, side: side)
        guard first != String(parts[0]) else { return text }
        return parts.count > 1 ? first + ";" + parts[1] : first
    }

    // MARK: Queries and forms

    /// A request target with secret query values replaced by the placeholder as URLs hold it
    /// (``Cassette/urlRedactionPlaceholder``); the rest kept exactly as written.
    mutating func redact(target: String) -> String {
        guard let mark = target.firstIndex(of: "?") else { return target }
        let query = String(target[target.index(after: mark)...])
        let redacted = redactPairs(
            query, location: "request query", side: .request, counting: \.queryParameters, placeholder: Cassette.urlRedactionPlaceholder)
        return redacted == query ? target : String(target[...mark]) + redacted
    }

    /// `name=value&...` with secret values replaced by `placeholder`, names and values judged after form
    /// decoding (so a value already redacted, in either spelling, is left as written); each value replaced
    /// counts at `counting`.
    mutating func redactPairs(
        _ text: String, location: String, side: Side, counting: WritableKeyPath<RedactionCount, Int>,
        placeholder: String = RedactionPass.placeholder
    ) -> String {
        var changed = false
        let pairs = text.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let rawValue = String(pair[pair.index(after: equals)...])
            let name = Self.formDecoded(String(pair[..<equals])), value = Self.formDecoded(rawValue)
            guard let rule = rules.verdict(on: value, name: name) else { return String(pair) }
            found("\(location) \(name)", rule)
            count[keyPath: counting] += 1
            // A response may quote the query as it came or the value it means.
            keep(rawValue, at: "\(location) \(name)", side: side)
            keep(value, at: "\(location) \(name)", side: side)
            changed = true
            return "\(pair[..<equals])=\(placeholder)"
        }
        return changed ? pairs.joined(separator: "&") : text
    }

    private static func formDecoded(_ text: String) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    // MARK: Text

    /// `text` with the value of every secret URL parameter in it replaced (see ``URLParametersInText``), and,
    /// when `words`, every word of a precise credential format; each value replaced counts at `counting` when
    /// given (a header line counts once, by its caller), and is a finding unless `finding` is false (JSON text
    /// whose walk found them at their paths).
    mutating func redactText(
        _ text: String, location: @autoclosure () -> String, side: Side, words wordsToo: Bool,
        counting: WritableKeyPath<RedactionCount, Int>? = nil, finding: Bool = true
    ) -> String {
        var ranges: [Range<Int>] = []
        var replacements: [String] = []
        for parameter in URLParametersInText.parameters(in: text, isSecret: { rules.verdict(onURLParameter: $0) != nil }) {
            guard let rule = rules.verdict(onURLParameter: parameter.name) else { continue }
            if finding { found(location(), rule) }
            ranges.append(parameter.value)
            replacements.append(parameter.placeholder)
        }
        if side == .request, !ranges.isEmpty {
            let bytes = Array(text.utf8)
            for range in ranges { keep(String(decoding: bytes[range], as: UTF8.self), at: location(), side: side) }
        }
        let withoutParameters = RedactionRules.replacing(ranges, in: text, with: replacements)
        var words: [Range<Int>] = []
        if wordsToo {
            for word in CredentialFormat.preciseWords(in: withoutParameters) {
                guard let rule = rules.verdict(onWord: word.text) else { continue }
                found(location(), rule)
                keep(word.text, at: location(), side: side)
                words.append(word.range)
            }
        }
        if let counting { count[keyPath: counting] += ranges.count + words.count }
        return RedactionRules.replacing(words, in: withoutParameters)
    }

    /// Finds the secret URL parameters in `text` at `location` without replacing them.
    mutating func findURLParameters(in text: String, location: @autoclosure () -> String) {
        for parameter in URLParametersInText.parameters(in: text, isSecret: { rules.verdict(onURLParameter: $0) != nil }) {
            if let rule = rules.verdict(onURLParameter: parameter.name) { found(location(), rule) }
        }
    }
}

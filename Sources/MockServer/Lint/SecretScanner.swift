import Foundation
import ServiceReplayShared

/// Finds credentials left in recorded exchanges: values of the redaction rules' headers and fields that
/// are not the placeholder, JSON Web Tokens, well-known token formats, and long high-entropy strings; and
/// secret query parameters (a presigned URL's signature) of URLs written in header values, JSON strings and
/// text bodies, stream events among them (see ``URLParametersInText``).
struct SecretScanner: Sendable {
    /// The rules naming credential headers and fields.
    var rules: RedactionRules

    /// A scanner for `rules` (default: ``RedactionRules/default``).
    init(rules: RedactionRules = .default) {
        self.rules = rules
    }

    /// Every finding in `request`, in the order headers, query, body.
    func scan(_ request: HTTPRequest) -> [SecretFinding] {
        var findings = scan(request.headers, side: "request")
        if let query = request.query {
            findings += scanPairs(query, location: "request query")
        }
        findings += scan(body: request.body, contentType: request.headers["Content-Type"], side: "request")
        return findings
    }

    /// Every finding in `response`, in the order headers, body.
    func scan(_ response: HTTPResponse) -> [SecretFinding] {
        scan(response.headers, side: "response") + scan(body: response.body, contentType: response.headers["Content-Type"], side: "response")
    }

    /// Why `value` looks like a credential on its own, or `nil` when it does not.
    static func suspicion(of value: String) -> String? {
        let bytes = Array(value.utf8)
        if isJWT(bytes) { return "JSON Web Token" }
        for (prefix, name, minimum) in knownPrefixes where value.hasPrefix(prefix) && bytes.count >= minimum {
            if bytes.dropFirst(prefix.utf8.count).allSatisfy(isTokenByte) { return name }
        }
        if isHighEntropy(bytes) { return "high-entropy string" }
        return nil
    }

    private static let knownPrefixes: [(String, String, Int)] = [
        ("ghp_", "GitHub token", 40), ("gho_", "GitHub token", 40), ("ghu_", "GitHub token", 40),
        ("ghs_", "GitHub token", 40), ("ghr_", "GitHub token", 40), ("github_pat_", "GitHub token", 40),
        ("AKIA", "AWS access key", 20), ("ASIA", "AWS access key", 20), ("xoxb-", "Slack token", 20),
        ("xoxp-", "Slack token", 20), ("xoxa-", "Slack token", 20), ("sk_live_", "Stripe key", 24),
        ("AIza", "Google API key", 39), ("glpat-", "GitLab token", 24),
    ]

    /// Headers that carry request and trace identifiers: random by design, and no secret.
    static let identifierHeaders: Set<String> = [
        "x-amzn-requestid", "x-amzn-request-id", "x-amz-request-id", "x-amz-id-2", "x-amz-cf-id", "x-amzn-trace-id",
        "x-request-id", "x-correlation-id", "x-trace-id", "request-id", "traceparent", "tracestate", "x-cloud-trace-context",
        "cf-ray", "x-github-request-id", "x-ms-request-id", "x-ms-client-request-id", "apigw-requestid", "x-b3-traceid",
        "x-b3-spanid", "x-b3-parentspanid", "x-datadog-trace-id", "x-datadog-parent-id", "x-guploader-uploadid", "fly-request-id",
    ]

    /// Whether a header with this name carries a request or trace identifier: a name in
    /// ``identifierHeaders``, or one ending in `-request-id`, `-requestid`, `-trace-id` or `-correlation-id`.
    static func isIdentifierHeader(_ name: String) -> Bool {
        let normalised = RedactionRules.normalisedHeader(name)
        return identifierHeaders.contains(normalised)
            || ["-request-id", "-requestid", "-trace-id", "-correlation-id"].contains { normalised.hasSuffix($0) }
    }

    private func scan(_ headers: HTTPHeaders, side: String) -> [SecretFinding] {
        headers.lines.flatMap { line -> [SecretFinding] in
            let location = "\(side) header \(line.name)"
            if rules.redactsHeader(line.name) {
                return line.value.contains(RedactionRules.placeholder) ? [] : [SecretFinding(location: location, reason: "credential header")]
            }
            let inURLs = scanURLParameters(in: line.value, location: location)
            guard let reason = Self.suspicion(of: line.value) else { return inURLs }
            // An identifier is random by design: only a precise credential format in one is a finding.
            if reason == "high-entropy string", Self.isIdentifierHeader(line.name) { return inURLs }
            return inURLs + [SecretFinding(location: location, reason: reason)]
        }
    }

    /// One finding per secret query parameter of the URLs in `text`: `location: URL parameter
    /// X-Amz-Signature is not redacted`.
    private func scanURLParameters(in text: String, location: String) -> [SecretFinding] {
        URLParametersInText.parameters(in: text, isSecret: rules.redactsField).map {
            SecretFinding(location: location, reason: "URL parameter \($0.name)")
        }
    }

    private func scanPairs(_ text: String, location: String) -> [SecretFinding] {
        text.split(separator: "&").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.formDecoded(String(parts[0]))
            let value = parts.count > 1 ? Self.formDecoded(String(parts[1])) : ""
            if rules.redactsField(name) {
                return value == RedactionRules.placeholder || value.isEmpty ? nil : SecretFinding(location: "\(location) \(name)", reason: "secret field")
            }
            return Self.suspicion(of: value).map { SecretFinding(location: "\(location) \(name)", reason: $0) }
        }
    }

    private func scan(body: Data, contentType: String?, side: String) -> [SecretFinding] {
        guard !body.isEmpty else { return [] }
        let type = contentType?.lowercased() ?? ""
        if type.hasPrefix("application/x-www-form-urlencoded") {
            return scanPairs(String(decoding: body, as: UTF8.self), location: "\(side) form field")
        }
        if type.contains("json") || type.isEmpty, let document = try? CassetteJSON(parsing: body) {
            var findings: [SecretFinding] = []
            scanJSON(document, path: .root, side: side, into: &findings)
            return findings
        }
        // JSON that does not parse is still text.
        guard type.hasPrefix("text/") || type.contains("xml") || type.contains("javascript") || type.contains("json") else { return [] }
        // Free text: only precise formats, since prose is full of long words.
        let text = String(decoding: body, as: UTF8.self)
        let words = text.split(whereSeparator: { !($0.asciiValue.map(Self.isTokenByte) ?? false) })
        return scanURLParameters(in: text, location: "\(side) body text")
            + words.compactMap { word in
                guard let reason = Self.suspicion(of: String(word)), reason != "high-entropy string" else { return nil }
                return SecretFinding(location: "\(side) body text", reason: reason)
            }
    }

    /// Findings in `value` and below, an object's members in the order of their keys, so that the findings
    /// come in the same order whatever order the body has.
    private func scanJSON(_ value: CassetteJSON, path: JSONPath, side: String, into findings: inout [SecretFinding]) {
        switch value {
        case .object(let members):
            for (key, inner) in members.sorted(by: { $0.key < $1.key }) {
                let innerPath = path.appending(.key(key))
                if rules.redactsField(key), ![.null, .string(RedactionRules.placeholder), .string("")].contains(inner) {
                    findings.append(SecretFinding(location: "\(side) body \(innerPath)", reason: "secret field"))
                } else {
                    scanJSON(inner, path: innerPath, side: side, into: &findings)
                }
            }
        case .array(let elements):
            for (index, inner) in elements.enumerated() {
                scanJSON(inner, path: path.appending(.index(index)), side: side, into: &findings)
            }
        case .string(let text):
            findings += scanURLParameters(in: text, location: "\(side) body \(path)")
            if let reason = Self.suspicion(of: text) {
                findings.append(SecretFinding(location: "\(side) body \(path)", reason: reason))
            }
        case .null, .bool, .number:
            break
        }
    }

    private static func formDecoded(_ text: String) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="):
            true
        default:
            false
        }
    }

    /// Three base64url segments, the first two starting with `eyJ` (`{"` encoded).
    private static func isJWT(_ bytes: [UInt8]) -> Bool {
        let segments = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard segments.count == 3, bytes.count >= 30 else { return false }
        let eyJ = Array("eyJ".utf8)
        return segments[0].starts(with: eyJ) && segments[1].starts(with: eyJ)
            && segments.allSatisfy { $0.allSatisfy { isTokenByte($0) && $0 != UInt8(ascii: ".") } }
    }

    /// At least 32 token characters mixing upper case, lower case and digits, with a Shannon entropy of at
    /// least 4.2 bits per character: random keys pass, hex digests (≤ 4 bits, no upper case) and words do not.
    private static func isHighEntropy(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 32, bytes.count <= 4096, bytes.allSatisfy(isTokenByte) else { return false }
        var upper = false, lower = false, digit = false
        var counts = [Int](repeating: 0, count: 256)
        for byte in bytes {
            counts[Int(byte)] += 1
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): upper = true
            case UInt8(ascii: "a")...UInt8(ascii: "z"): lower = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = true
            default: break
            }
        }
        guard upper, lower, digit else { return false }
        let total = Double(bytes.count)
        let entropy = counts.reduce(0.0) { sum, count in
            guard count > 0 else { return sum }
            let p = Double(count) / total
            return sum - p * log2(p)
        }
        return entropy >= 4.2
    }
}

/// A value in a recorded exchange that looks like a credential that was not redacted.
struct SecretFinding: Sendable, Hashable, CustomStringConvertible {
    /// Where it is: `request header Authorization`, `request query access_token`, `response body $.items[0].key`.
    let location: String
    /// Why it looks secret: `credential header`, `secret field`, `JSON Web Token`, `GitHub token`,
    /// `high-entropy string`, ...
    let reason: String

    /// Creates a finding.
    init(location: String, reason: String) {
        self.location = location
        self.reason = reason
    }

    /// `location: reason is not redacted`.
    package var description: String { "\(location): \(reason) is not redacted" }
}

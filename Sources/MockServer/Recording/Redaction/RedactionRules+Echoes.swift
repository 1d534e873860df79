import Foundation

/// Secrets a request carried, removed from the response that repeats them. Only values of at least
/// ``shortestEchoedSecret`` characters are looked for, so that a short value (`1`, `yes`) never rewrites
/// unrelated text.
extension RedactionRules {
    /// The shortest secret value looked for in responses.
    static let shortestEchoedSecret = 6

    /// The values of `request` that these rules redact: credential header values (and the credential after an
    /// `Authorization` scheme), cookie values, and secret query, form and JSON fields; longest first, so a
    /// whole header value is replaced before the token inside it. Each is looked for as written and in the
    /// spellings a response repeats it in (see ``echoSpellings(of:)``): a query value both as sent and
    /// decoded, and any value percent-encoded or with JSON's escaped slash, as an Azure `sig` comes back.
    func secretValues(in request: RecordedRequest) -> [String] {
        var values: Set<String> = []
        for line in request.headers.lines where redactsHeader(line.name) {
            values.insert(line.value)
            if let space = line.value.firstIndex(of: " ") {
                values.insert(String(line.value[line.value.index(after: space)...]))
            }
            for cookie in line.value.split(separator: ";") {
                if let equals = cookie.firstIndex(of: "=") { values.insert(String(cookie[cookie.index(after: equals)...])) }
            }
        }
        if let mark = request.target.firstIndex(of: "?") {
            values.formUnion(secretPairs(request.target[request.target.index(after: mark)...]))
        }
        switch request.body.form {
        case .json(let value, _):
            collectSecretStrings(value, into: &values)
        case .text(let text) where MediaType(request.headers["Content-Type"]).isFormURLEncoded:
            values.formUnion(secretPairs(Substring(text)))
        default:
            break
        }
        return Set(values.flatMap(Self.echoSpellings))
            .filter { $0.count >= Self.shortestEchoedSecret && !$0.contains(Self.placeholder) }
            .sorted { $0.count > $1.count || ($0.count == $1.count && $0 < $1) }
    }

    /// `value`, percent-encoded as a query value (every byte but letters, digits and `-._~`, upper- and
    /// lower-case hex), and with `/` written `\/` as in JSON text.
    static func echoSpellings(of value: String) -> [String] {
        var upper = "", lower = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                upper.unicodeScalars.append(UnicodeScalar(byte))
                lower.unicodeScalars.append(UnicodeScalar(byte))
            default:
                let hex = String(byte, radix: 16)
                let padded = byte < 16 ? "0" + hex : hex
                upper += "%" + padded.uppercased()
                lower += "%" + padded
            }
        }
        return [value, upper, lower, value.replacingOccurrences(of: "/", with: "\\/")]
    }

    /// Replaces each of `secrets` by the placeholder in `response`'s header values and text or JSON body.
    func scrub(_ secrets: [String], from response: inout RecordedResponse) -> RedactionCount {
        guard !secrets.isEmpty else { return RedactionCount() }
        var count = RedactionCount()
        var headers = response.headers.lines
        for index in headers.indices {
            let scrubbed = Self.replacing(secrets, in: headers[index].value)
            if scrubbed != headers[index].value {
                headers[index].value = scrubbed
                count.headers += 1
            }
        }
        if count.headers > 0 { response.headers = HTTPHeaders(headers) }
        switch response.body.form {
        case .text(let text):
            let scrubbed = Self.replacing(secrets, in: text)
            if scrubbed != text {
                response.body = .text(scrubbed)
                count.bodyFields += 1
            }
        case .json(let value, let layout):
            var changed = 0
            let scrubbed = Self.replacing(secrets, in: value, changed: &changed)
            if changed > 0 {
                response.body = .json(scrubbed, layout: layout)
                count.bodyFields += changed
            }
        case .stream(var stream):
            var changed = 0
            for index in stream.parts.indices {
                switch stream.parts[index].content {
                case .event(var fields):
                    let scrubbed = fields.data.map { Self.replacing(secrets, in: $0) }
                    if scrubbed != fields.data {
                        fields.data = scrubbed
                        stream.parts[index].content = .event(fields)
                        changed += 1
                    }
                case .text(let text):
                    let scrubbed = Self.replacing(secrets, in: text)
                    if scrubbed != text {
                        stream.parts[index].content = .text(scrubbed)
                        changed += 1
                    }
                case .binary:
                    break
                }
            }
            if changed > 0 {
                response.body = .stream(stream)
                count.bodyFields += changed
            }
        case .empty, .binary:
            break
        }
        return count
    }

    /// The secret values of a query or form, each as sent and decoded: a response may quote the query as it
    /// came or the value it means.
    private func secretPairs(_ text: Substring) -> [String] {
        text.split(separator: "&").flatMap { pair -> [String] in
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { return [] }
            let name = String(parts[0]).replacingOccurrences(of: "+", with: " ")
            guard redactsField(name.removingPercentEncoding ?? name) else { return [] }
            let value = String(parts[1]).replacingOccurrences(of: "+", with: " ")
            return [String(parts[1]), value.removingPercentEncoding ?? value]
        }
    }

    private func collectSecretStrings(_ value: CassetteJSON, into values: inout Set<String>) {
        switch value {
        case .object(let members):
            for (key, member) in members {
                if redactsField(key), case .string(let secret) = member {
                    values.insert(secret)
                } else {
                    collectSecretStrings(member, into: &values)
                }
            }
        case .array(let elements):
            for element in elements { collectSecretStrings(element, into: &values) }
        default:
            break
        }
    }

    private static func replacing(_ secrets: [String], in text: String) -> String {
        secrets.reduce(text) { $0.replacingOccurrences(of: $1, with: placeholder) }
    }

    private static func replacing(_ secrets: [String], in value: CassetteJSON, changed: inout Int) -> CassetteJSON {
        switch value {
        case .string(let text):
            let scrubbed = replacing(secrets, in: text)
            if scrubbed != text { changed += 1 }
            return .string(scrubbed)
        case .object(let members):
            return .object(members.mapValues { replacing(secrets, in: $0, changed: &changed) })
        case .array(let elements):
            return .array(elements.map { replacing(secrets, in: $0, changed: &changed) })
        default:
            return value
        }
    }
}

import Foundation
import ServiceReplayShared

/// Secrets a request carried, removed from the response that repeats them (an echo service, an error message
/// quoting the token). Only values of at least ``RedactionRules/shortestEchoedSecret`` characters are looked
/// for, so that a short value (`1`, `yes`) never rewrites unrelated text.
extension RedactionRules {
    /// The shortest secret value looked for in responses.
    static let shortestEchoedSecret = 6

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
}

extension RedactionPass {
    /// The secret values the requests of this pass carried, in every spelling a response repeats them in (see
    /// ``RedactionRules/echoSpellings(of:)``): a credential header's value and the credential after its scheme,
    /// cookie values, secret query, form and JSON values as sent and decoded, secret URL parameters and
    /// credential-shaped words. Longest first, so a whole header value is replaced before the token inside it.
    var echoes: [Echo] {
        var locations: [String: String] = [:]
        for secret in requestSecrets {
            for spelling in RedactionRules.echoSpellings(of: secret.value)
            where spelling.count >= RedactionRules.shortestEchoedSecret && !spelling.contains(Self.placeholder) && locations[spelling] == nil {
                locations[spelling] = secret.location
            }
        }
        return locations.map { Echo(spelling: $0.key, location: $0.value) }
            .sorted { $0.spelling.count > $1.spelling.count || ($0.spelling.count == $1.spelling.count && $0.spelling < $1.spelling) }
    }

    /// Replaces each of `echoes` by the placeholder in `response`'s header values and text, JSON or stream body;
    /// a header line, a text body, a JSON string or a stream part that changed counts once.
    mutating func scrub(_ echoes: [Echo], from response: inout RecordedResponse) {
        guard !echoes.isEmpty else { return }
        var headers = response.headers.lines
        var changedHeaders = false
        for index in headers.indices {
            guard let scrubbed = scrubbing(echoes, from: headers[index].value, at: "response header \(headers[index].name)") else { continue }
            headers[index].value = scrubbed
            count.headers += 1
            changedHeaders = true
        }
        if changedHeaders { response.headers = HTTPHeaders(headers) }
        switch response.body.form {
        case .text(let text):
            guard let scrubbed = scrubbing(echoes, from: text, at: "response body text") else { break }
            response.body = .text(scrubbed)
            count.bodyFields += 1
        case .json(let value, let layout):
            let before = findings.count
            let scrubbed = scrubbing(echoes, from: value, path: .root)
            if findings.count > before { response.body = .json(scrubbed, layout: layout) }
        case .stream(var stream):
            stream.parts = scrubbing(echoes, from: stream.parts, firstIndex: 0)
            response.body = .stream(stream)
        case .empty, .binary:
            break
        }
    }

    /// `parts` with `echoes` replaced in event data and text parts; findings name each part by its index,
    /// counted from `firstIndex`.
    mutating func scrubbing(_ echoes: [Echo], from parts: [RecordedStream.Part], firstIndex: Int) -> [RecordedStream.Part] {
        guard !echoes.isEmpty else { return parts }
        var parts = parts
        for index in parts.indices {
            let place = "response body part \(firstIndex + index)"
            switch parts[index].content {
            case .event(var fields):
                guard let data = fields.data, let scrubbed = scrubbing(echoes, from: data, at: place) else { continue }
                fields.data = scrubbed
                parts[index].content = .event(fields)
                count.bodyFields += 1
            case .text(let text):
                guard let scrubbed = scrubbing(echoes, from: text, at: place) else { continue }
                parts[index].content = .text(scrubbed)
                count.bodyFields += 1
            case .binary:
                break
            }
        }
        return parts
    }

    /// `text` with every echo replaced, found at `location` (its caller counts it); `nil` when there was none.
    mutating func scrubbing(_ echoes: [Echo], from text: String, at location: @autoclosure () -> String) -> String? {
        var result = text
        var first: Echo?
        for echo in echoes where result.contains(echo.spelling) {
            result = result.replacingOccurrences(of: echo.spelling, with: Self.placeholder)
            if first == nil { first = echo }
        }
        guard let first else { return nil }
        found(location(), SecretRule(.echo(of: first.location), allowEntry: nil))
        return result
    }

    private mutating func scrubbing(_ echoes: [Echo], from value: CassetteJSON, path: JSONPath) -> CassetteJSON {
        switch value {
        case .string(let text):
            guard let scrubbed = scrubbing(echoes, from: text, at: "response body \(path)") else { return value }
            count.bodyFields += 1
            return .string(scrubbed)
        case .object(let members):
            var copy = members
            for (key, member) in members.sorted(by: { $0.key < $1.key }) {
                copy[key] = scrubbing(echoes, from: member, path: path.appending(.key(key)))
            }
            return .object(copy)
        case .array(let elements):
            return .array(elements.enumerated().map { scrubbing(echoes, from: $1, path: path.appending(.index($0))) })
        case .null, .bool, .number:
            return value
        }
    }
}

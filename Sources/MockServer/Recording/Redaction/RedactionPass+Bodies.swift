import Foundation
import ServiceReplayShared

/// Bodies keep their stored kind (JSON, text or base64), and every byte but the values replaced: a JSON body is
/// edited as a value, so every other member keeps its exact literal; text keeps every byte but the values
/// replaced. Base64 bodies and parts are bytes, not text: only a form or JSON body stored so is looked into,
/// never for URLs or words. Multipart bodies are not looked into.
extension RedactionPass {
    /// What a JSON walk does with the secret parameters of URLs in strings.
    enum URLsInStrings {
        /// Replaces them (a body stored as JSON).
        case replace
        /// Only finds them, at their JSON path: the text they are written in replaces them, keeping its bytes.
        case find
        /// Leaves them (bytes, not text).
        case leave
    }

    /// Redacts `body` in place: a form (`application/x-www-form-urlencoded`) field by field; JSON (stored as
    /// JSON, or text and bytes under a JSON media type or none) member by member; the rest of text for its
    /// URLs' secret parameters and credential-shaped words; a stream part by part. Each value replaced counts
    /// as a body field.
    mutating func redact(_ body: inout RecordedBody, contentType: String?, side: Side) {
        let place = "\(side.rawValue) body"
        let before = count.bodyFields
        switch body.form {
        case .empty:
            return
        case .json(let value, let layout):
            let redacted = redactJSON(value, name: nil, path: .root, place: place, side: side, urls: .replace)
            if count.bodyFields > before { body = .json(redacted, layout: layout) }
        case .text(let text):
            let redacted = redactText(structured: text, contentType: contentType, place: place, textPlace: "\(place) text", side: side)
            if redacted != text { body = .text(redacted) }
        case .binary(let data):
            if let redacted = redactStructured(data, contentType: contentType, place: place, side: side, urls: .leave), redacted.data != data {
                body = .binary(redacted.data)
            }
        case .stream(var stream):
            stream.parts = redact(stream.parts, place: place, side: side, firstIndex: 0)
            if count.bodyFields > before { body = .stream(stream) }
        }
    }

    /// Stream parts with their secrets replaced: event data as JSON when it parses (a streaming API's payloads),
    /// else as text; text parts as text; binary parts left alone. Findings name each part by its index,
    /// counted from `firstIndex`.
    mutating func redact(_ parts: [RecordedStream.Part], place: String, side: Side, firstIndex: Int) -> [RecordedStream.Part] {
        var parts = parts
        for index in parts.indices {
            let partPlace = "\(place) part \(firstIndex + index)"
            switch parts[index].content {
            case .event(var fields):
                guard let data = fields.data else { continue }
                let redacted = redactText(structured: data, contentType: "application/json", place: partPlace, textPlace: partPlace, side: side)
                guard redacted != data else { continue }
                fields.data = redacted
                parts[index].content = .event(fields)
            case .text(let text):
                let redacted = redactText(text, location: partPlace, side: side, words: true, counting: \.bodyFields)
                if redacted != text { parts[index].content = .text(redacted) }
            case .binary:
                continue
            }
        }
        return parts
    }

    /// Text that may be a form or JSON (by `contentType`, or JSON-looking text without one): its fields as
    /// such (JSON findings at `place` and their path), then its URLs' secret parameters in the text itself, so
    /// that every other byte stays; text that is neither is also looked through for credential-shaped words.
    /// Findings in the text are at `textPlace`.
    mutating func redactText(structured text: String, contentType: String?, place: String, textPlace: String, side: Side) -> String {
        guard let fields = redactStructured(Data(text.utf8), contentType: contentType, place: place, side: side, urls: .find) else {
            return redactText(text, location: textPlace, side: side, words: true, counting: \.bodyFields)
        }
        let redacted = fields.data == Data(text.utf8) ? text : String(decoding: fields.data, as: UTF8.self)
        // JSON found its URL parameters at their paths already.
        return redactText(redacted, location: textPlace, side: side, words: false, counting: \.bodyFields, finding: !fields.isJSON)
    }

    /// `data` with secret fields replaced when it is a form, or JSON (a JSON media type, or none and a body
    /// that starts as an object or array does), and which of the two it was; `nil` when it is neither. A
    /// changed JSON document is written in its own ``JSONLayout`` when it has one of those, else compactly; an
    /// unchanged one is returned as it was.
    mutating func redactStructured(
        _ data: Data, contentType: String?, place: String, side: Side, urls: URLsInStrings = .leave
    ) -> (data: Data, isJSON: Bool)? {
        let mediaType = MediaType(contentType)
        if mediaType.isFormURLEncoded {
            let text = String(decoding: data, as: UTF8.self)
            let redacted = redactPairs(text, location: "\(side.rawValue) form field", side: side, counting: \.bodyFields)
            return (redacted == text ? data : Data(redacted.utf8), false)
        }
        let looksJSON = mediaType.isJSON || (contentType == nil && [UInt8(ascii: "{"), UInt8(ascii: "[")].contains(data.first))
        guard looksJSON, let value = try? CassetteJSON(parsing: data) else { return nil }
        let before = count.bodyFields
        let redacted = redactJSON(value, name: nil, path: .root, place: place, side: side, urls: urls)
        guard count.bodyFields > before else { return (data, true) }
        return (Data((JSONLayout.reproducing(data, from: value) ?? .compact).render(redacted)), true)
    }

    /// `value` with every secret replaced, at any depth: a member by its name or path whatever it holds (but
    /// `null` and booleans), a string also by its format, and the secret parameters of URLs in strings as
    /// `urls` says. `name` is the key that holds `value` (an array's, for its elements). Members are visited in
    /// the order of their keys, so that findings come in the same order whatever order the body has.
    private mutating func redactJSON(
        _ value: CassetteJSON, name: String?, path: JSONPath, place: String, side: Side, urls: URLsInStrings
    ) -> CassetteJSON {
        switch value {
        case .object(let members):
            var copy = members
            for (key, member) in members.sorted(by: { $0.key < $1.key }) {
                let memberPath = path.appending(.key(key))
                let byName = rule(forName: key, header: false)
                if case .string = member {
                    copy[key] = redactJSON(member, name: key, path: memberPath, place: place, side: side, urls: urls)
                } else if let rule = rules.verdict(onMember: member, name: key, byName: byName, path: memberPath) {
                    found("\(place) \(memberPath)", rule)
                    count.bodyFields += 1
                    copy[key] = .string(RedactionRules.placeholder)
                } else {
                    copy[key] = redactJSON(member, name: key, path: memberPath, place: place, side: side, urls: urls)
                }
            }
            return .object(copy)
        case .array(let elements):
            return .array(
                elements.enumerated().map { index, element in
                    redactJSON(element, name: name, path: path.appending(.index(index)), place: place, side: side, urls: urls)
                })
        case .string(let text):
            let byName = name.map { rule(forName: $0, header: false) } ?? nil
            if let rule = rules.verdict(on: text, name: name, byName: byName, path: path) {
                found("\(place) \(path)", rule)
                count.bodyFields += 1
                keep(text, at: "\(place) \(path)", side: side)
                return .string(RedactionRules.placeholder)
            }
            switch urls {
            case .replace:
                let redacted = redactText(text, location: "\(place) \(path)", side: side, words: false, counting: \.bodyFields)
                return redacted == text ? value : .string(redacted)
            case .find:
                findURLParameters(in: text, location: "\(place) \(path)")
                return value
            case .leave:
                return value
            }
        case .null, .bool, .number:
            return value
        }
    }
}

import Foundation

extension Cassette {
    /// The cassette's file contents: pretty-printed JSON with sorted keys and unescaped slashes (byte for
    /// byte what `JSONEncoder` gives with `.prettyPrinted, .sortedKeys, .withoutEscapingSlashes`, so without a
    /// final newline), except that inline JSON bodies keep their own key order. Unset optional fields, default matching rules, empty header lists and empty bodies are
    /// left out, so a re-recording diffs only where the exchanges differ.
    public func encoded() -> Data {
        Data(JSONWriter.write(jsonValue, pretty: true))
    }

    /// The cassette as a JSON document (see ``encoded()``).
    public var jsonValue: CassetteJSON {
        var top: [String: CassetteJSON] = [
            "format": .string(Cassette.format),
            "version": .number(JSONNumber(Cassette.currentVersion)),
            "name": .string(name),
            "origin": .string(origin.rawValue),
            "interactions": .array(interactions.map(\.jsonValue)),
        ]
        top["upstream"] = upstream.map(CassetteJSON.string)
        top["note"] = note.map(CassetteJSON.string)
        top["recordedAt"] = recordedAt.map { .string(CassetteDate.format($0)) }
        if !matching.isDefault { top["matching"] = matching.jsonValue }
        if !errorTemplates.isEmpty { top["errorTemplates"] = .sortedObject(errorTemplates.mapValues(\.jsonValue)) }
        return .sortedObject(top)
    }
}

extension Interaction {
    /// The interaction as it appears in a cassette's `interactions` array.
    public var jsonValue: CassetteJSON {
        var members: [String: CassetteJSON] = ["request": request.jsonValue]
        switch outcome {
        case .response(let response): members["response"] = response.jsonValue
        case .failure(let failure): members["failure"] = failure.jsonValue
        case .webSocket(let conversation): members["webSocket"] = conversation.jsonValue
        }
        members["recordedAt"] = recordedAt.map { .string(CassetteDate.format($0)) }
        members["durationMs"] = durationMs.map { .number(JSONNumber($0)) }
        return .sortedObject(members)
    }
}

extension RecordedRequest {
    /// The request as it appears in a cassette.
    public var jsonValue: CassetteJSON {
        var members: [String: CassetteJSON] = ["method": .string(method), "target": .string(target)]
        members["headers"] = headers.jsonValue
        members["body"] = body.jsonValue
        return .sortedObject(members)
    }
}

extension RecordedResponse {
    /// The response as it appears in a cassette.
    public var jsonValue: CassetteJSON {
        var members: [String: CassetteJSON] = ["status": .number(JSONNumber(status))]
        members["headers"] = headers.jsonValue
        members["body"] = body.jsonValue
        return .sortedObject(members)
    }
}

extension TransportFailure {
    /// The failure as it appears in a cassette.
    public var jsonValue: CassetteJSON {
        var members: [String: CassetteJSON] = ["kind": .string(kind.rawValue)]
        members["message"] = message.map(CassetteJSON.string)
        return .sortedObject(members)
    }
}

extension RecordedBody {
    /// `{"json": ...}` (with `layout` and `finalNewline` unless compact), `{"text": ...}`, `{"base64": ...}` or
    /// `{"stream": [...]}` (with `ending` unless complete);
    /// `nil` for an empty body, which is left out.
    public var jsonValue: CassetteJSON? {
        switch form {
        case .empty: nil
        case .json(let value, let layout):
            .sortedObject(
                [
                    "json": value, "layout": layout.lines == .compact ? nil : .string(layout.name),
                    "finalNewline": layout.finalNewline ? .bool(true) : nil,
                ].compactMapValues { $0 })
        case .text(let text): text.isEmpty ? nil : .object(["text": .string(text)])
        case .binary(let data): data.isEmpty ? nil : .object(["base64": .string(data.base64EncodedString())])
        case .stream(let stream):
            .sortedObject(
                [
                    "stream": .array(stream.parts.map(\.jsonValue)),
                    "ending": stream.ending == .complete ? nil : .string(stream.ending.rawValue),
                ].compactMapValues { $0 })
        }
    }
}

extension RecordedStream.Part {
    /// `{"offsetMs": N, ...}` with the event's fields (`comment`, `data`, `event`, `id`, `retry`, sorted) or
    /// `text` or `base64`.
    var jsonValue: CassetteJSON {
        var members: [String: CassetteJSON] = ["offsetMs": .number(JSONNumber(offsetMs))]
        switch content {
        case .event(let fields):
            members["event"] = fields.event.map(CassetteJSON.string)
            members["id"] = fields.id.map(CassetteJSON.string)
            members["retry"] = fields.retry.map { .number(JSONNumber($0)) }
            members["data"] = fields.data.map(CassetteJSON.string)
            members["comment"] = fields.comment.map(CassetteJSON.string)
        case .text(let text):
            members["text"] = .string(text)
        case .binary(let bytes):
            members["base64"] = .string(bytes.base64EncodedString())
        }
        return .sortedObject(members)
    }
}

extension MatchRules {
    /// The `matching` block as it appears in a cassette; empty lists and an unset policy are left out.
    public var jsonValue: CassetteJSON {
        var members: [String: CassetteJSON] = [:]
        if !ignoredQueryParameters.isEmpty { members["ignoreQuery"] = .array(ignoredQueryParameters.map(CassetteJSON.string)) }
        if !ignoredBodyFields.isEmpty { members["ignoreBodyFields"] = .array(ignoredBodyFields.map(CassetteJSON.string)) }
        if !headers.isEmpty { members["headers"] = .array(headers.map(CassetteJSON.string)) }
        members["afterLast"] = afterLast.map { .string($0.rawValue) }
        if !ignoredBodyPaths.isEmpty { members["ignoreBodyPaths"] = .array(ignoredBodyPaths.map(CassetteJSON.string)) }
        if !ignoredXMLElements.isEmpty { members["ignoreXMLElements"] = .array(ignoredXMLElements.map(CassetteJSON.string)) }
        if !ignoredBodies.isEmpty { members["ignoreBody"] = .array(ignoredBodies.map(CassetteJSON.string)) }
        return .sortedObject(members)
    }
}

extension HTTPHeaders {
    /// `[[name, value], ...]` in order, as cassettes store headers; `nil` when there are none (left out).
    var jsonValue: CassetteJSON? {
        isEmpty ? nil : .array(lines.map { .array([.string($0.name), .string($0.value)]) })
    }
}

extension CassetteJSON {
    /// An object with `members` in the order of their keys' UTF-8 bytes, as a cassette's own objects are written.
    static func sortedObject(_ members: [String: CassetteJSON]) -> CassetteJSON {
        .object(Members(members))
    }
}

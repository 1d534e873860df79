import Foundation

extension RecordedWebSocket {
    /// The conversation as it appears in a cassette (see ``RecordedWebSocket``).
    var jsonValue: CassetteJSON {
        var members: [String: CassetteJSON] = [
            "response": response.jsonValue,
            "messages": .array(messages.map(\.jsonValue)),
        ]
        switch ending {
        case .closed(let side, let code, let reason, let offsetMs):
            members["close"] = .sortedObject(
                [
                    "by": .string(side.rawValue), "code": code.map { .number(JSONNumber($0)) },
                    "reason": reason.isEmpty ? nil : .string(reason), "offsetMs": .number(JSONNumber(offsetMs)),
                ].compactMapValues { $0 })
        case .dropped(let side, let offsetMs):
            members["dropped"] = .sortedObject(["by": .string(side.rawValue), "offsetMs": .number(JSONNumber(offsetMs))])
        case .unfinished:
            break
        }
        return .sortedObject(members)
    }

    /// Reads a conversation; offsets must be whole milliseconds that never decrease, a close code one a close
    /// frame may carry (1000 to 4999).
    init(_ reader: CassetteFieldReader) throws(MockServerError) {
        try reader.rejectUnknown(["response", "messages", "close", "dropped"])
        let response = try RecordedResponse(reader.object("response"))
        guard response.status == 101 else {
            throw reader.failure("response.status", "expected 101, the status of an accepted upgrade, found \(response.status)")
        }
        var messages: [Message] = []
        let elements = try reader.optionalArray("messages") ?? []
        messages.reserveCapacity(elements.count)
        for position in elements.indices {
            let message = try CassetteFieldReader(
                elements[position], file: reader.file, interaction: reader.interaction, path: reader.fieldPath("messages[\(position)]"))
            try message.rejectUnknown(["from", "offsetMs", "text", "base64"])
            let offset = try message.optionalInteger("offsetMs") ?? 0
            guard offset >= 0, offset >= (messages.last?.offsetMs ?? 0) else {
                throw message.failure("offsetMs", "expected whole milliseconds of 0 or more, not less than the previous message's, found \(offset)")
            }
            let content: Content
            switch (try message.optionalString("text"), try message.optionalString("base64")) {
            case (let text?, nil):
                content = .text(text)
            case (nil, let encoded?):
                guard let bytes = Data(base64Encoded: encoded) else { throw message.failure("base64", "invalid base64") }
                content = .binary(bytes)
            default:
                throw message.failure(nil, "expected exactly one of \"text\" or \"base64\"")
            }
            messages.append(Message(from: try message.side("from"), offsetMs: offset, content))
        }
        let last = messages.last?.offsetMs ?? 0
        let ending: Ending
        switch (try reader.optionalObject("close"), try reader.optionalObject("dropped")) {
        case (let close?, nil):
            try close.rejectUnknown(["by", "code", "reason", "offsetMs"])
            let code = try close.optionalInteger("code")
            if let code, !(1000...4999).contains(code) {
                throw close.failure("code", "expected a close code from 1000 to 4999, found \(code)")
            }
            ending = .closed(
                by: try close.side("by"), code: code, reason: try close.optionalString("reason") ?? "",
                offsetMs: try close.endingOffset(after: last))
        case (nil, let dropped?):
            try dropped.rejectUnknown(["by", "offsetMs"])
            ending = .dropped(by: try dropped.side("by"), offsetMs: try dropped.endingOffset(after: last))
        case (nil, nil):
            ending = .unfinished
        default:
            throw reader.failure(nil, "expected at most one of \"close\" or \"dropped\"")
        }
        self.init(response: response, messages: messages, ending: ending)
    }
}

extension RecordedWebSocket.Message {
    /// `{"from": SIDE, "offsetMs": N, "text" | "base64": ...}`.
    var jsonValue: CassetteJSON {
        var members: [String: CassetteJSON] = ["from": .string(from.rawValue), "offsetMs": .number(JSONNumber(offsetMs))]
        switch content {
        case .text(let text): members["text"] = .string(text)
        case .binary(let bytes): members["base64"] = .string(bytes.base64EncodedString())
        }
        return .sortedObject(members)
    }
}

extension CassetteFieldReader {
    /// The side named by `key`: `client` or `server`.
    fileprivate func side(_ key: String) throws(MockServerError) -> RecordedWebSocket.Side {
        let text = try string(key)
        guard let side = RecordedWebSocket.Side(rawValue: text) else {
            throw failure(key, "expected client or server, found \(JSONWriter.quoted(text))")
        }
        return side
    }

    /// An ending's `offsetMs`: whole milliseconds, not before the last message (`last`); `last` when left out.
    fileprivate func endingOffset(after last: Int) throws(MockServerError) -> Int {
        let offset = try optionalInteger("offsetMs") ?? last
        guard offset >= last else {
            throw failure("offsetMs", "expected whole milliseconds not less than the last message's (\(last)), found \(offset)")
        }
        return offset
    }
}

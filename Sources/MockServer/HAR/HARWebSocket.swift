import Foundation

/// One WebSocket data message of a HAR entry, as Chromium and Firefox write `_webSocketMessages`: `type` is
/// `send` (from the client) or `receive`, `time` the Unix time in seconds, `opcode` 1 (text) or 2 (binary), and
/// `data` the text, or for binary the bytes in base64.
package struct HARWebSocketMessage: Codable, Sendable, Hashable {
    var type: String
    var time: Double
    var opcode: Int
    var data: String
}

/// How a WebSocket conversation ended, kept in `_webSocketEnding` (browsers have no field for it): a close
/// frame (`kind` `close`, with its code and reason) or a connection dropped without one (`dropped`), by the
/// `client` or the `server`, `offsetMs` after the upgrade.
package struct HARWebSocketEnding: Codable, Sendable, Hashable {
    var kind: String
    var by: String
    var code: Int?
    var reason: String?
    var offsetMs: Int
}

extension RecordedWebSocket {
    /// The messages in HAR's shape, their times counted from `start`, the upgrade's.
    func harMessages(start: Date) -> [HARWebSocketMessage] {
        messages.map { message in
            let (opcode, data) =
                switch message.content {
                case .text(let text): (1, text)
                case .binary(let bytes): (2, bytes.base64EncodedString())
                }
            let time = start.timeIntervalSince1970 + Double(message.offsetMs) / 1000
            return HARWebSocketMessage(type: message.from == .client ? "send" : "receive", time: time, opcode: opcode, data: data)
        }
    }

    /// The ending in HAR's shape; `nil` for an unfinished conversation.
    var harEnding: HARWebSocketEnding? {
        switch ending {
        case .closed(let side, let code, let reason, let offsetMs):
            HARWebSocketEnding(kind: "close", by: side.rawValue, code: code, reason: reason.isEmpty ? nil : reason, offsetMs: offsetMs)
        case .dropped(let side, let offsetMs):
            HARWebSocketEnding(kind: "dropped", by: side.rawValue, offsetMs: offsetMs)
        case .unfinished:
            nil
        }
    }

    /// The conversation a HAR entry's `_webSocketMessages` and `_webSocketEnding` describe, answered by
    /// `response`; message times count from `start`. Throws ``MockServerError`` `invalidField` naming the entry
    /// for an unknown type, opcode or side, or invalid base64. Times that run backwards are kept in order.
    init(
        response: RecordedResponse, messages records: [HARWebSocketMessage], ending record: HARWebSocketEnding?, start: Date, entry: Int
    ) throws(MockServerError) {
        func invalid(_ reason: String) -> MockServerError {
            MockServerError(code: .invalidField, entry: entry, reason: reason)
        }
        var messages: [Message] = []
        for (index, record) in records.enumerated() {
            let from: Side
            switch record.type {
            case "send": from = .client
            case "receive": from = .server
            default: throw invalid("_webSocketMessages[\(index)].type \(JSONWriter.quoted(record.type)) is not send or receive")
            }
            let content: Content
            switch record.opcode {
            case 1: content = .text(record.data)
            case 2:
                guard let bytes = Data(base64Encoded: record.data) else { throw invalid("_webSocketMessages[\(index)].data is not valid base64") }
                content = .binary(bytes)
            default: throw invalid("_webSocketMessages[\(index)].opcode \(record.opcode) is not 1 (text) or 2 (binary)")
            }
            let elapsed = (record.time - start.timeIntervalSince1970) * 1000
            let offset = elapsed.isFinite && elapsed > 0 && elapsed < Double(Int32.max) ? Int(elapsed.rounded()) : 0
            messages.append(Message(from: from, offsetMs: max(offset, messages.last?.offsetMs ?? 0), content))
        }
        let last = messages.last?.offsetMs ?? 0
        var ending = Ending.unfinished
        if let record {
            guard let side = Side(rawValue: record.by) else { throw invalid("_webSocketEnding.by \(JSONWriter.quoted(record.by)) is not client or server") }
            switch record.kind {
            case "close": ending = .closed(by: side, code: record.code, reason: record.reason ?? "", offsetMs: max(last, record.offsetMs))
            case "dropped": ending = .dropped(by: side, offsetMs: max(last, record.offsetMs))
            default: throw invalid("_webSocketEnding.kind \(JSONWriter.quoted(record.kind)) is not close or dropped")
            }
        }
        self.init(response: response, messages: messages, ending: ending)
    }
}

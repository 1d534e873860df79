import Foundation
import MockServer

/// What `recorder show` prints: one interaction in full, laid out like the HTTP messages themselves
/// (request line, headers, blank line, body; then the response likewise).
enum InteractionText {
    static func render(_ interaction: Interaction, index: Int, cassette: Cassette) -> String {
        var when = interaction.recordedAt.map { "recorded \($0.formatted(.iso8601))" } ?? "recorded at an unknown time"
        if let duration = interaction.durationMs { when += " in \(duration) ms" }
        var sections = ["interaction \(index) of \(cassette.name), \(when)"]
        let request = interaction.request
        sections.append(message(firstLine: "\(request.method) \(request.target)", headers: request.headers, body: request.body))
        switch interaction.outcome {
        case .response(let response):
            let reason = HTTPResponse.reasonPhrase(for: response.status)
            let statusLine = reason == "Status" ? String(response.status) : "\(response.status) \(reason)"
            sections.append(message(firstLine: statusLine, headers: response.headers, body: response.body))
        case .failure(let failure):
            sections.append("transport failure: \(failure.kind.rawValue)" + (failure.message.map { " (\($0))" } ?? ""))
        case .webSocket(let conversation):
            let response = conversation.response
            sections.append(message(firstLine: "\(response.status) Switching Protocols", headers: response.headers, body: response.body))
            sections.append(conversationLines(conversation).joined(separator: "\n"))
        }
        return sections.joined(separator: "\n\n")
    }

    /// One line per message (`+12 ms server text: ...`, binary as base64) and one for the ending.
    private static func conversationLines(_ conversation: RecordedWebSocket) -> [String] {
        var lines = conversation.messages.map { message in
            let payload =
                switch message.content {
                case .text(let text): "text: \(text)"
                case .binary(let bytes): "binary, \(bytes.count) bytes: \(bytes.base64EncodedString())"
                }
            return "+\(message.offsetMs) ms \(message.from.rawValue) \(payload)"
        }
        switch conversation.ending {
        case .closed(let side, let code, let reason, let offsetMs):
            lines.append("+\(offsetMs) ms \(side.rawValue) closed" + (code.map { " with \($0)" } ?? "") + (reason.isEmpty ? "" : " \"\(reason)\""))
        case .dropped(let side, let offsetMs):
            lines.append("+\(offsetMs) ms \(side.rawValue) dropped the connection")
        case .unfinished:
            lines.append("(still open when the recording stopped)")
        }
        return lines
    }

    private static func message(firstLine: String, headers: HTTPHeaders, body: RecordedBody) -> String {
        let head = ([firstLine] + headers.lines.map { "\($0.name): \($0.value)" }).joined(separator: "\n")
        guard let text = BodyText.render(body, contentType: headers["Content-Type"]) else { return head }
        return head + "\n\n" + text
    }
}

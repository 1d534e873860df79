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
        }
        return sections.joined(separator: "\n\n")
    }

    private static func message(firstLine: String, headers: HTTPHeaders, body: RecordedBody) -> String {
        let head = ([firstLine] + headers.lines.map { "\($0.name): \($0.value)" }).joined(separator: "\n")
        guard let text = BodyText.render(body, contentType: headers["Content-Type"]) else { return head }
        return head + "\n\n" + text
    }
}

import Foundation

/// A WebSocket conversation is redacted as an exchange is: the upgrade's answer by its headers, and each text
/// message as a body without a content type, so a JSON message member by member (its other literals kept) and
/// other text for its URLs' secret parameters and credential-shaped words. A client message counts as the
/// request's side, a server message as the response's, from which the secrets of the upgrade request (its
/// `Authorization`, a token in its query) are also removed where it repeats them. Binary messages are bytes and
/// are left alone.
extension RedactionPass {
    /// Redacts `conversation` in place; findings name each message as `client message N` or `server message N`,
    /// N its position in the conversation.
    mutating func redact(_ conversation: inout RecordedWebSocket) {
        conversation.response.headers = redact(conversation.response.headers, side: .response)
        let secrets = echoes
        for index in conversation.messages.indices {
            guard case .text(let text) = conversation.messages[index].content else { continue }
            let from = conversation.messages[index].from
            let side: Side = from == .client ? .request : .response
            let place = "\(from.rawValue) message \(index)"
            var redacted = redactText(structured: text, contentType: nil, place: place, textPlace: place, side: side)
            if side == .response, let scrubbed = scrubbing(secrets, from: redacted, at: place) {
                redacted = scrubbed
                count.bodyFields += 1
            }
            if redacted != text { conversation.messages[index].content = .text(redacted) }
        }
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceKit

/// A chat room: JSON messages in and out, the API's own close codes from 4000 on.
struct ChatService: WebSocketService {
    struct Incoming: Decodable, Sendable, Equatable {
        var author: String
        var text: String
    }

    struct Outgoing: Encodable, Sendable {
        var text: String
        var sentAt: Date
        var score: Double = 1
    }

    var room: String
    var since: Int?
    var subprotocols: [String] = []
    var parameters: Parameters { ["since": since] }
    var endpoint: String { "/rooms/\(room)/socket" }

    func configure(_ request: inout URLRequest) {
        request.setValue("chat-key", forHTTPHeaderField: "X-Room-Key")
    }
}

/// A ticker that only listens and reads raw text: `ping` is skipped, anything else is a price.
struct TickerService: WebSocketService {
    var endpoint: String { "/ticks" }

    func incoming(from message: WebSocketMessage) throws -> Double? {
        guard case .text(let text) = message else { throw WebServiceError.service(.undecodableBody) }
        if text == "ping" { return nil }
        guard let price = Double(text) else { throw WebServiceError.service(.invalidField("$")) }
        return price
    }

    /// This API closes with 1008 when the subscription expired: an error of the service, not of the network.
    func serviceError(for close: WebSocketCloseFrame) -> WebServiceError.Service? {
        close.code == .policyViolation ? .errorPayload(code: "expired", message: close.reason) : close.applicationError
    }
}

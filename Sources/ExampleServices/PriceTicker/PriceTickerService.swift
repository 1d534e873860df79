import Foundation
import ServiceKit

/// The live prices of one market of a price-ticker API: a WebSocket at `{base}/v1/prices?market=...`. The app
/// sends ``Outgoing`` to subscribe to symbols; the server sends a ``PriceTick`` for each trade, and
/// `{"type": "heartbeat"}` now and then, which the service skips.
///
/// The API's closes: 1000 when the session is over (``WebSocketConnection/messages`` ends normally); 4003 with a
/// reason when the market is closed and 4004 when a symbol is unknown, which are service-level errors
/// (`.service(.errorPayload(code: "4003", message: "market closed"))`, the default reading of 4000–4999); any other
/// close, and a drop, are `.network(.connectionLost)`.
///
/// ```swift
/// let ticker = try await client.connect(to: PriceTickerService(market: "crypto"))
/// try await ticker.send(.subscribe(["BTC-USD", "ETH-USD"]))
/// for try await tick in ticker.messages { show(tick.symbol, tick.price) }
/// ```
public struct PriceTickerService: WebSocketService {
    /// What the server sends, heartbeats aside.
    public typealias Incoming = PriceTick

    /// What the app sends: `{"action": "subscribe", "symbols": [...]}`.
    public struct Outgoing: Encodable, Sendable, Hashable {
        /// `subscribe` or `unsubscribe`.
        public var action: String
        /// The symbols, such as `BTC-USD`.
        public var symbols: [String]

        /// A subscription to `symbols`.
        public static func subscribe(_ symbols: [String]) -> Outgoing {
            Outgoing(action: "subscribe", symbols: symbols)
        }
    }

    /// The market: `crypto`, `nyse`, ...
    public var market: String

    /// The prices of `market`.
    public init(market: String) {
        self.market = market
    }

    /// `/v1/prices`.
    public var endpoint: String { "/v1/prices" }

    /// `market`.
    public var parameters: Parameters { ["market": market] }

    /// A price tick decoded from the JSON message; `nil` for a heartbeat.
    ///
    /// - Throws: `.undecodableBody` when the message is not JSON; `.missingField` or `.invalidField` with the key
    ///   path when a tick does not fit ``PriceTick``.
    public func incoming(from message: WebSocketMessage) throws -> PriceTick? {
        guard let json = message.json else { throw WebServiceError.service(.undecodableBody) }
        if json["type"].string == "heartbeat" { return nil }
        return try json.decode(PriceTick.self, dateFormat: messageDateFormat)
    }
}

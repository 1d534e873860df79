import Foundation

/// One trade's price, as ``PriceTickerService`` receives it.
public struct PriceTick: Decodable, Sendable, Hashable {
    /// The symbol traded, such as `BTC-USD`.
    public var symbol: String
    /// The price, in the symbol's quote currency.
    public var price: Double
    /// When the trade happened.
    public var time: Date
}

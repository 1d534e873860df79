import Foundation

/// One page of Stack Exchange questions, with the API's wrapper fields.
public struct StackExchangeQuestionsPage: Hashable, Sendable {
    /// The questions.
    public var items: [StackExchangeQuestion]
    /// Whether another page exists.
    public var hasMore: Bool
    /// The daily request quota, when sent.
    public var quotaMax: Int?
    /// Requests left today.
    public var quotaRemaining: Int
    /// Seconds to wait before calling this method again, when the API asks.
    public var backoff: TimeInterval?

    /// A page.
    public init(
        items: [StackExchangeQuestion], hasMore: Bool, quotaMax: Int? = nil, quotaRemaining: Int,
        backoff: TimeInterval? = nil
    ) {
        self.items = items
        self.hasMore = hasMore
        self.quotaMax = quotaMax
        self.quotaRemaining = quotaRemaining
        self.backoff = backoff
    }
}

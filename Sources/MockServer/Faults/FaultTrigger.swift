/// When a fault rule fires, counted over the requests (or, for `refuse`, the connections) that pass the
/// rule's filters. Counting starts at 1.
public enum FaultTrigger: Sendable, Hashable, CustomStringConvertible {
    /// Every time.
    case always
    /// The first `n` times, then never again.
    case first(Int)
    /// Only the `n`th time.
    case nth(Int)
    /// Every `n`th time: the `n`th, `2n`th, ...
    case every(Int)
    /// Each time with probability `p` (0...1), decided by the plan's seeded generator so that the same
    /// seed gives the same decisions in the same order.
    case probability(Double)

    /// Whether the rule fires for its `count`th matching request, given a uniform draw `unit` in [0, 1).
    func fires(count: Int, unit: Double) -> Bool {
        switch self {
        case .always: true
        case .first(let n): count <= n
        case .nth(let n): count == n
        case .every(let n): count % n == 0
        case .probability(let p): unit < p
        }
    }

    /// Whether the rule can still fire after `count` matches; a spent `first`/`nth` rule stops counting.
    func isSpent(after count: Int) -> Bool {
        switch self {
        case .first(let n), .nth(let n): count >= n
        case .always, .every, .probability: false
        }
    }

    /// The CLI spelling: `always`, `first:N`, `nth:N`, `every:N` or `p:0.1`.
    public var description: String {
        switch self {
        case .always: "always"
        case .first(let n): "first:\(n)"
        case .nth(let n): "nth:\(n)"
        case .every(let n): "every:\(n)"
        case .probability(let p): "p:\(p)"
        }
    }

    /// Parses the CLI spelling; throws ``MockServerError`` naming `text` when it is not one.
    static func parse(_ text: String) throws(MockServerError) -> FaultTrigger {
        if text == "always" { return .always }
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2 else {
            throw MockServerError(.invalidFaultPlan, "trigger '\(text)' is not one of always, first:N, nth:N, every:N or p:P")
        }
        if parts[0] == "p" {
            guard let p = Double(parts[1]), p >= 0, p <= 1 else {
                throw MockServerError(.invalidFaultPlan, "trigger '\(text)' needs a probability from 0 to 1, such as p:0.1")
            }
            return .probability(p)
        }
        guard let n = Int(parts[1]), n >= 1 else {
            throw MockServerError(.invalidFaultPlan, "trigger '\(text)' needs a whole number of at least 1, such as \(parts[0]):2")
        }
        switch parts[0] {
        case "first": return .first(n)
        case "nth": return .nth(n)
        case "every": return .every(n)
        default: throw MockServerError(.invalidFaultPlan, "trigger '\(text)' is not one of always, first:N, nth:N, every:N or p:P")
        }
    }
}

/// How a replayed stream's parts are timed: as recorded, instantly, or at a chosen speed.
public struct StreamTiming: Sendable, Hashable, CustomStringConvertible {
    /// What every recorded offset is multiplied by: 1 as recorded, 0 instantly, 0.5 twice as fast.
    public let scale: Double

    private init(scale: Double) {
        self.scale = scale
    }

    /// Each part at its recorded offset. The default.
    public static let recorded = StreamTiming(scale: 1)
    /// Every part at once, right after the head.
    public static let instant = StreamTiming(scale: 0)

    /// `factor` times as fast as recorded (`2` halves every offset, `0.5` doubles it). A factor that is
    /// not a positive finite number is a programming error.
    public static func speed(_ factor: Double) -> StreamTiming {
        precondition(factor > 0 && factor.isFinite, "a stream speed must be a positive number, got \(factor)")
        return StreamTiming(scale: 1 / factor)
    }

    /// The spelling ``parse(_:)`` reads: `recorded`, `instant` or the speed factor with `x` (`2x`).
    public var description: String {
        switch scale {
        case 1: "recorded"
        case 0: "instant"
        default: "\(1 / scale)x"
        }
    }

    /// Reads `recorded`, `instant` or a speed such as `2x` or `0.5x`; `nil` for anything else.
    public static func parse(_ text: String) -> StreamTiming? {
        switch text {
        case "recorded": return .recorded
        case "instant": return .instant
        default:
            guard text.hasSuffix("x"), let factor = Double(text.dropLast()), factor > 0, factor.isFinite else { return nil }
            return .speed(factor)
        }
    }
}

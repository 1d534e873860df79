import Foundation
import ServiceKit

/// How one run of the matrix's call ended, with what the report shows beside it.
struct CallOutcome: Sendable, CustomStringConvertible {
    enum Result: Sendable {
        /// The call returned a value.
        case value(any Sendable)
        /// The call threw a ``WebServiceError``.
        case error(WebServiceError)
        /// The call threw something else (an async call's own error type), described.
        case foreignError(String)
        /// The call was still running at its real-time deadline (a hang, not a timeout) and was cancelled.
        case neverEnded(Duration)
        /// The server never injected the row's fault (it does not apply to this call).
        case notInjected
    }

    var result: Result
    /// Stream events received before the end; `nil` for a plain call.
    var events: Int?
    /// The retries' waits the client's virtual clock recorded, in seconds.
    var sleeps: [TimeInterval] = []
    /// Whether the value equals the baseline's.
    var equalsBaseline = false
    /// The baseline's value, shortened, when the call returned a different one; `nil` otherwise.
    var baseline: String?

    /// `success after 0 retries`, `success: [] (baseline: [Book(id: 1)]) after 0 retries` for a value other
    /// than the baseline's, `.service(.httpStatus(503)) after 2 retries (slept 1 s, 1 s)`,
    /// `.network(.timedOut) after 2 events`.
    var description: String {
        var text =
            switch result {
            case .value(let value) where baseline != nil: "success: \(Self.shortened(value)) (baseline: \(baseline ?? ""))"
            case .value: "success"
            case .error(let error): error.reason.matrixSpelling
            case .foreignError(let description): "the error \(description)"
            case .neverEnded(let deadline): "the row never ended: still running after \(Self.seconds(deadline)) of real time"
            case .notInjected: "the fault never fired"
            }
        switch result {
        case .neverEnded, .notInjected: return text
        default: break
        }
        if let events { text += " after \(events) event" + (events == 1 ? "" : "s") + "," }
        text += " after \(sleeps.count) " + (sleeps.count == 1 ? "retry" : "retries")
        if !sleeps.isEmpty { text += " (slept " + sleeps.map { Self.seconds(.milliseconds(Int(($0 * 1000).rounded()))) }.joined(separator: ", ") + ")" }
        return text
    }

    /// `value` on one line, cut to 60 characters: enough to tell an empty list or a placeholder from the real
    /// answer in a table cell.
    /// Strings are quoted, optionals unwrapped (`nil` when empty).
    static func shortened(_ value: Any) -> String {
        var value = value
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first?.value else { return "nil" }
            value = wrapped
        }
        let described = value is String ? String(reflecting: value) : String(describing: value)
        let text = described.split(whereSeparator: \.isNewline).joined(separator: " ")
        return text.count <= 60 ? text : text.prefix(59) + "…"
    }

    /// `1 s`, `0.25 s`: to `places` decimals (default 2), trailing zeros dropped.
    static func seconds(_ duration: Duration, places: Int = 2) -> String {
        let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        let scale = pow(10, Double(places))
        let rounded = (value * scale).rounded() / scale
        return (rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)) + " s"
    }
}

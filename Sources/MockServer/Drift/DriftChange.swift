/// One difference between a recorded answer and what the live API answers now, named by where it is:
/// a JSON path, `status`, `Content-Type`, a header or a server-sent event.
///
/// Its ``line`` is what `recorder drift` prints and what the `swift test` drift mode reports, word for word:
/// `breaking  $.user.id: number → string (type changed)`.
package struct DriftChange: Sendable, Hashable {
    /// Whether the change can break a client that worked against the recording.
    package enum Severity: String, Sendable, Hashable {
        /// A field removed, a type changed, null where a value was, a status class or content type changed,
        /// an upstream unreachable: a client built on the recording may fail.
        case breaking
        /// Something new (a field, a header, an event, a value where null was, a status of the same
        /// class): a client built on the recording keeps working. Printed as a warning.
        case additive
    }

    /// Breaking or additive.
    package let severity: Severity
    /// Where: `$.user.login`, `status`, `Content-Type`, `header Link`, `event done`, `event message $.delta`, `upstream`.
    package let place: String
    /// What the recording had there (`number`, `200`, `missing`...).
    package let recorded: String
    /// What the live answer has there.
    package let live: String
    /// What kind of change this is, in a few words: `type changed`, `field removed`...
    package let kind: String

    package init(_ severity: Severity, _ place: String, recorded: String, live: String, kind: String) {
        self.severity = severity
        self.place = place
        self.recorded = recorded
        self.live = live
        self.kind = kind
    }

    /// `SEVERITY  PLACE: RECORDED → LIVE (KIND)`, the severity padded so that places line up.
    package var line: String {
        let label = severity.rawValue
        return label + String(repeating: " ", count: 10 - label.count) + "\(place): \(recorded) → \(live) (\(kind))"
    }

    /// The upstream failed below HTTP (refused, reset, timed out), as `message` says: breaking.
    package static func unreachable(_ message: String) -> DriftChange {
        DriftChange(.breaking, "upstream", recorded: "answered", live: "unreachable", kind: message)
    }
}

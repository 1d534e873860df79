import Foundation

/// How a test uses its cassette, after VCR's record modes. Tests read it from the environment
/// (``fromEnvironment(_:)``), so one variable re-records a suite without touching its code.
package enum RecordMode: String, Sendable, Hashable, CaseIterable {
    /// Replay only; a missing cassette fails the test, naming the file and the command that records it.
    /// The default (`MOCKSERVER_RECORD=none` or unset).
    case none
    /// Record a cassette that does not exist yet; replay one that does (`MOCKSERVER_RECORD=once`).
    case once
    /// Replay what the cassette matches; forward the rest and append it (`MOCKSERVER_RECORD=new-episodes`).
    case newEpisodes = "new-episodes"
    /// Re-record from scratch (`MOCKSERVER_RECORD=all`). The new recording replaces the old cassette
    /// atomically, and only when the test passed; a failing test leaves the old cassette untouched.
    case all
    /// Forward everything to the upstream and record nothing (`MOCKSERVER_LIVE=1`), to check the tests
    /// against the real API.
    case live
    /// Like ``live``, and then compare each live answer by shape with the interaction the cassette would have
    /// replayed (`MOCKSERVER_RECORD=drift`): breaking changes fail the test, additive ones are warnings, both
    /// worded as `recorder drift` words them. The cassette is never changed.
    case drift

    /// The variable holding the record mode: `none`, `once`, `new-episodes`, `all` or `drift`.
    package static let recordVariable = RecordVariables.record
    /// The variable that, set to `1`, sends every request to the upstream (``live``), whatever
    /// `MOCKSERVER_RECORD` says.
    package static let liveVariable = "MOCKSERVER_LIVE"

    /// The mode the environment asks for: ``live`` when `MOCKSERVER_LIVE` is `1` (or `true`), else
    /// `MOCKSERVER_RECORD`'s value, else ``none``. Values are trimmed and compared without case.
    /// - Throws: ``MockServerError`` with a sentence naming the variable, its value and the allowed values.
    package static func fromEnvironment(_ environment: [String: String] = TestEnvironment.current) throws(MockServerError) -> RecordMode {
        if let text = environment[liveVariable]?.trimmingWhitespace().lowercased(), !text.isEmpty {
            switch text {
            case "1", "true", "yes": return .live
            case "0", "false", "no": break
            default: throw MockServerError(.invalidConfiguration, "\(liveVariable)='\(text)' is not one of 1, true, yes, 0, false, no")
            }
        }
        guard let text = environment[recordVariable]?.trimmingWhitespace(), !text.isEmpty else { return .none }
        let recordable = allCases.filter { $0 != .live }
        guard let mode = recordable.first(where: { $0.rawValue == text.lowercased() }) else {
            let allowed = recordable.map(\.rawValue).joined(separator: ", ")
            throw MockServerError(.invalidConfiguration, "\(recordVariable)='\(text)' is not a record mode; use one of \(allowed) (or \(liveVariable)=1)")
        }
        return mode
    }
}

/// Why a command stopped: a usage error (exit status 2) or a failure of the work itself (exit status 1).
/// ``message`` is the one sentence printed on standard error after `recorder: `.
struct RecorderError: Error, Equatable {
    enum Kind: Equatable {
        /// The command line is wrong: unknown option, missing argument, bad value.
        case usage
        /// The command line was fine but the work failed: unreadable file, lint findings, port in use.
        case failure
    }

    let kind: Kind
    let message: String

    static func usage(_ message: String) -> RecorderError { RecorderError(kind: .usage, message: message) }
    static func failure(_ message: String) -> RecorderError { RecorderError(kind: .failure, message: message) }

    /// 2 for usage errors, 1 for failures.
    var exitStatus: Int32 { kind == .usage ? 2 : 1 }
}

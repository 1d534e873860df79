import ServiceReplayShared

/// What `recorder replay` and `recorder capture` print on standard error when the process has no file descriptor
/// left for a new connection: once per run, however often the shortage comes back while connections open and
/// close at the limit, and the command goes on serving.
enum ExhaustionWarning {
    static let sentence = "out of file descriptors (see ulimit -n); open connections are still served, new ones wait until some close"

    /// The server's shortage callback for `console`: prints ``sentence`` the first time only.
    static func printer(to console: Console) -> @Sendable () -> Void {
        let printed = Lock(false)
        return {
            let first = printed.withLock { printed in
                defer { printed = true }
                return !printed
            }
            if first { console.error(sentence) }
        }
    }
}

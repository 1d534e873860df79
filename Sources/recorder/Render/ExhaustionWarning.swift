/// What `recorder replay` and `recorder capture` print on standard error when the process has no file descriptor
/// left for a new connection: once per shortage, and the command goes on serving.
enum ExhaustionWarning {
    static let sentence = "out of file descriptors (see ulimit -n); open connections are still served, new ones wait until some close"
}

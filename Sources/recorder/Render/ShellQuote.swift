/// Quoting for POSIX shells: one pair of single quotes, each `'` inside written `'\''`. Everything but NUL
/// survives, newlines included, and nothing is expanded.
enum ShellQuote {
    static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}

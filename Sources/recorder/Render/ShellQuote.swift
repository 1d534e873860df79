import Foundation

/// Quoting for POSIX shells: one pair of single quotes, each `'` inside written `'\''`. Everything but NUL
/// survives, newlines included, and nothing is expanded.
enum ShellQuote {
    static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// `text` bare when it holds only characters no shell treats specially (`GET`, `body.bin`), else quoted.
    static func word(_ text: String) -> String {
        let plain =
            !text.isEmpty
            && text.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "@%+=:,./_-".unicodeScalars.contains(scalar))
            }
        return plain ? text : quote(text)
    }
}

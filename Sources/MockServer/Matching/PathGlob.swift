/// A shell-style pattern for request paths: `*` matches any run of characters (slashes included) and
/// `?` exactly one; everything else matches itself. Matched against the path as matching compares it
/// (``RequestParts/normalizedPath(of:)``: no query or fragment, escapes decoded), by fault rules and journal patterns alike.
struct PathGlob: Sendable, Hashable, CustomStringConvertible {
    /// The pattern as written.
    let pattern: String
    private let pieces: [UInt8]

    /// Creates a glob from `pattern`, such as `/users*` or `/2.3/questions`.
    init(_ pattern: String) {
        self.pattern = pattern
        self.pieces = Array(pattern.utf8)
    }

    /// The pattern as written.
    package var description: String { pattern }

    /// Whether `path` matches the whole pattern.
    func matches(_ path: String) -> Bool {
        // Iterative wildcard matching with one backtrack point: linear in practice, never exponential.
        let text = Array(path.utf8)
        var p = 0, t = 0
        var star = -1, resume = 0
        while t < text.count {
            if p < pieces.count, pieces[p] == UInt8(ascii: "?") || pieces[p] == text[t] {
                p += 1
                t += 1
            } else if p < pieces.count, pieces[p] == UInt8(ascii: "*") {
                star = p
                resume = t
                p += 1
            } else if star >= 0 {
                p = star + 1
                resume += 1
                t = resume
            } else {
                return false
            }
        }
        while p < pieces.count, pieces[p] == UInt8(ascii: "*") { p += 1 }
        return p == pieces.count
    }
}

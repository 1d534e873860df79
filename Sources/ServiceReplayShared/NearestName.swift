/// The name a mistyped one most likely meant, for the "did you mean …?" of an error sentence: a recorder command
/// or option, a cassette in a recordings folder.
package enum NearestName {
    /// The first of `names` (in the order given) that `name` starts, when `name` has two characters or more;
    /// else the closest at most two edits away and nearer than its own length; `nil` when none is close.
    package static func nearest(to name: String, among names: [String]) -> String? {
        if name.count >= 2, let prefixed = names.first(where: { $0.hasPrefix(name) }) { return prefixed }
        let scored = names.map { ($0, editDistance(name, $0)) }.filter { $0.1 <= 2 && $0.1 < $0.0.count }
        return scored.min { $0.1 < $1.1 }?.0
    }

    /// The Levenshtein distance between `a` and `b`, by characters.
    package static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}

/// Suggestions for misspelt names, so an error can say "did you mean ...?".
public enum Spelling {
    /// The name among `names` nearest to `name`, ignoring case, when it is close enough
    /// to be a plausible typo (a third of its letters, at least two).
    public static func nearest(to name: String, among names: some Sequence<String>) -> String? {
        let limit = max(2, name.count / 3)
        return names.map { ($0, distance($0.lowercased(), name.lowercased())) }
            .filter { $0.1 <= limit }
            .min { ($0.1, $0.0) < ($1.1, $1.0) }?.0
    }

    /// The edit distance between two names (insertions, deletions and substitutions).
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var row = [i + 1]
            for (j, y) in b.enumerated() {
                row.append(min(previous[j + 1] + 1, row[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = row
        }
        return previous[b.count]
    }
}

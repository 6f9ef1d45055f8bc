/// The lines of `check`'s findings that point at a member of a document: asked for while
/// the documents are checked, and found once the check is over, reading the documents with
/// findings a batch at a time. A revision's documents are read from git, where a file read
/// apart costs a run of git each; a batch costs two.
struct FindingLines {
    /// How many documents one read takes: their texts are held only while their lines are found.
    static let documentsPerRead = 4096

    private var asked: [(finding: Int, path: String, keys: [String])] = []

    /// Asks for finding `index`'s line: where the first of `keys` that the document at `path`
    /// has starts (a canonical document has one member a line).
    mutating func locate(_ index: Int, keys: [String], in path: String) {
        asked.append((index, path, keys))
    }

    /// Sets the line of each finding asked for, from the documents `read` gives by path; a
    /// document it cannot read, or without the key, leaves the finding without a line.
    func resolve(_ findings: inout [StoreFinding], read: ([String]) -> [String: [UInt8]]) {
        let byPath = Dictionary(grouping: asked.indices, by: { asked[$0].path })
        let paths = byPath.keys.sorted()
        var start = 0
        while start < paths.count {
            let batch = Array(paths[start..<min(start + Self.documentsPerRead, paths.count)])
            start += batch.count
            let texts = read(batch)
            for path in batch {
                guard let bytes = texts[path] else { continue }
                let lines = String(decoding: bytes, as: UTF8.self).split(
                    separator: "\n", omittingEmptySubsequences: false)
                for position in byPath[path] ?? [] {
                    let (finding, _, keys) = asked[position]
                    findings[finding].line =
                        keys.lazy.compactMap { key in
                            lines.firstIndex { $0.hasPrefix("  \"\(key)\":") }.map { $0 + 1 }
                        }.first
                }
            }
        }
    }
}

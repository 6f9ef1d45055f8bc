/// Words filled into lines of at most a width, as a person's terminal shows prose: the tour's
/// narration, a help screen's usage.
enum WordWrap {
    /// `words` joined by blanks into lines of at most `width` characters, each line after the
    /// first starting with `indent` blanks; a word longer than a line has a line of its own.
    static func lines(_ words: some Sequence<String>, width: Int, indent: Int = 0) -> [String] {
        var lines: [String] = []
        for word in words where !word.isEmpty {
            if let last = lines.last, last.count + 1 + word.count <= width {
                lines[lines.count - 1] += " " + word
            } else {
                lines.append((lines.isEmpty ? "" : String(repeating: " ", count: indent)) + word)
            }
        }
        return lines
    }
}

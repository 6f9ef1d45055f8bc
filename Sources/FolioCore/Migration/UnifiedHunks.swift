/// The hunks of a unified diff, written as `git diff` writes them.
///
/// Three lines of context; two changes at most six unchanged lines apart share a hunk;
/// each `@@` line ends with the nearest line above the hunk that starts with a letter,
/// `_` or `$` (git's default function-name rule, xdiff's `def_ff`), cut to 80 bytes and
/// stripped of trailing white space; a line without a final newline is followed by
/// `\ No newline at end of file`.
struct UnifiedHunks {
    static let contextLines = 3
    /// Longest function text git keeps, in bytes.
    static let functionTextLimit = 80

    let old: [UInt8]
    let new: [UInt8]
    let diff: LineDiff

    /// The hunks' text; empty when the texts' lines are equal.
    func render() -> [UInt8] {
        var output: [UInt8] = []
        let changes = diff.changes
        var next = 0
        var previousSearchStart = -1
        var function: ArraySlice<UInt8> = []
        while next < changes.count {
            // The changes this hunk holds: each within 2 × context lines of the previous one.
            var last = next
            while last + 1 < changes.count {
                let gap = changes[last + 1].oldStart - (changes[last].oldStart + changes[last].oldCount)
                guard gap <= 2 * Self.contextLines else { break }
                last += 1
            }
            let first = changes[next]
            let final = changes[last]
            let oldStart = max(first.oldStart - Self.contextLines, 0)
            let newStart = max(first.newStart - Self.contextLines, 0)
            let trailing = min(
                Self.contextLines, diff.old.count - (final.oldStart + final.oldCount),
                diff.new.count - (final.newStart + final.newCount))
            let oldEnd = final.oldStart + final.oldCount + trailing
            let newEnd = final.newStart + final.newCount + trailing

            // Git looks upward from the line above the hunk, no further than where it
            // looked for the previous hunk, and keeps the previous text if it finds none.
            var line = oldStart - 1
            while line != previousSearchStart, line >= 0 {
                if let text = functionText(diff.old.lines[line]) {
                    function = text
                    break
                }
                line -= 1
            }
            previousSearchStart = oldStart - 1
            appendHeader(
                &output, oldStart: oldStart, oldCount: oldEnd - oldStart, newStart: newStart,
                newCount: newEnd - newStart, function: function)

            var newLine = newStart
            for change in changes[next...last] {
                while newLine < change.newStart {
                    appendLine(&output, " ", new[diff.new.lines[newLine]])
                    newLine += 1
                }
                for oldLine in change.oldStart..<change.oldStart + change.oldCount {
                    appendLine(&output, "-", old[diff.old.lines[oldLine]])
                }
                for inserted in change.newStart..<change.newStart + change.newCount {
                    appendLine(&output, "+", new[diff.new.lines[inserted]])
                }
                newLine = change.newStart + change.newCount
            }
            while newLine < newEnd {
                appendLine(&output, " ", new[diff.new.lines[newLine]])
                newLine += 1
            }
            next = last + 1
        }
        return output
    }

    /// A line's text for the `@@` line if it starts with a letter, `_` or `$`.
    private func functionText(_ range: Range<Int>) -> ArraySlice<UInt8>? {
        guard let first = range.first.map({ old[$0] }),
            GitText.isLetter(first) || first == UInt8(ascii: "_") || first == UInt8(ascii: "$")
        else { return nil }
        var text = old[range.lowerBound..<min(range.upperBound, range.lowerBound + Self.functionTextLimit)]
        while let last = text.last, GitText.isSpace(last) { text.removeLast() }
        return text
    }

    /// `@@ -a,b +c,d @@ function`: a count of 1 is left out, and an empty side's start is the line before.
    private func appendHeader(
        _ output: inout [UInt8], oldStart: Int, oldCount: Int, newStart: Int, newCount: Int, function: ArraySlice<UInt8>
    ) {
        func range(_ start: Int, _ count: Int) -> String {
            let first = count == 0 ? start : start + 1
            return count == 1 ? "\(first)" : "\(first),\(count)"
        }
        var header = Array("@@ -\(range(oldStart, oldCount)) +\(range(newStart, newCount)) @@".utf8)
        if !function.isEmpty {
            // xdiff formats the line in a 128-byte buffer, its newline included.
            header.append(UInt8(ascii: " "))
            header.append(contentsOf: function.prefix(max(0, 127 - header.count)))
        }
        header.append(UInt8(ascii: "\n"))
        // Git cuts the line before the first byte that is not valid UTF-8, then ends it with a newline.
        let valid = GitText.validUTF8Prefix(header)
        output.append(contentsOf: header[..<valid])
        if valid < header.count { output.append(UInt8(ascii: "\n")) }
    }

    private func appendLine(_ output: inout [UInt8], _ marker: Character, _ line: ArraySlice<UInt8>) {
        output.append(marker.asciiValue!)
        output.append(contentsOf: line)
        if line.last != UInt8(ascii: "\n") {
            output.append(contentsOf: Array("\n\\ No newline at end of file\n".utf8))
        }
    }
}

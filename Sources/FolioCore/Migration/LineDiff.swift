/// Which lines of two texts are deleted and which inserted, as git's default diff decides.
///
/// Git's default algorithm is xdiff's Myers: before searching, lines between the common
/// prefix and suffix that have no equal line on the other side are set aside as changed,
/// as are lines with many equals that sit among such unmatched lines; the search then
/// runs on what is left, with xdiff's cost limits (`LineDiff+Search`); afterwards every
/// group of changed lines is slid as far as it can go and placed where a change on the
/// other side faces it or the indent heuristic likes it best (`LineDiff+Sliders`).
/// Each step is reimplemented here from the behaviour of git's `xdiff/xprepare.c` and
/// `xdiff/xdiffi.c`, so the same two texts give the same hunks as `git diff`.
struct LineDiff {
    /// One side of the comparison: its lines and which of them changed.
    struct Side {
        /// Each line's byte range in the text, its newline included; the last line may lack one.
        let lines: [Range<Int>]
        /// Each line's class: lines with equal bytes, on either side, have equal classes.
        let classes: [Int]
        /// Each line's indent in columns (a tab to the next multiple of 8, at most 200), or -1 for a blank line.
        let indents: [Int]
        /// Whether each line changed, with a `false` guard before the first line and after the last.
        private(set) var marks: [Bool]

        var count: Int { classes.count }

        /// Whether line `index` (-1 through `count`, the guards included) changed.
        func isChanged(_ index: Int) -> Bool { marks[index + 1] }

        mutating func setChanged(_ index: Int, _ changed: Bool) { marks[index + 1] = changed }
    }

    /// A run of deleted lines and the run of inserted lines that replaces it (either may be empty).
    struct Change: Equatable {
        /// The first deleted line, or where the insertion goes, in the old text (0-based).
        var oldStart: Int
        /// The first inserted line, or where the deletion was, in the new text (0-based).
        var newStart: Int
        var oldCount: Int
        var newCount: Int
    }

    var old: Side
    var new: Side

    /// Compares two texts line by line.
    init(old oldText: [UInt8], new newText: [UInt8]) {
        let oldLines = Self.lines(of: oldText)
        let newLines = Self.lines(of: newText)
        var classOf: [ArraySlice<UInt8>: Int] = [:]
        func classify(_ text: [UInt8], _ lines: [Range<Int>]) -> [Int] {
            lines.map { range in
                let key = text[range]
                if let known = classOf[key] { return known }
                classOf[key] = classOf.count
                return classOf.count - 1
            }
        }
        let oldClasses = classify(oldText, oldLines)
        let newClasses = classify(newText, newLines)
        old = Side(
            lines: oldLines, classes: oldClasses, indents: oldLines.map { Self.indent(of: oldText[$0]) },
            marks: [Bool](repeating: false, count: oldLines.count + 2))
        new = Side(
            lines: newLines, classes: newClasses, indents: newLines.map { Self.indent(of: newText[$0]) },
            marks: [Bool](repeating: false, count: newLines.count + 2))

        Self.markChanges(&old, &new, classCount: classOf.count)
        Self.compact(&old, other: &new)
        Self.compact(&new, other: &old)
    }

    /// The changes in order: each pairs a maximal run of deleted lines with the run of
    /// inserted lines at the same place.
    var changes: [Change] {
        var result: [Change] = []
        var i = 0
        var j = 0
        while i < old.count || j < new.count {
            if old.isChanged(i) || new.isChanged(j) {
                let startOld = i
                let startNew = j
                while old.isChanged(i) { i += 1 }
                while new.isChanged(j) { j += 1 }
                result.append(
                    Change(oldStart: startOld, newStart: startNew, oldCount: i - startOld, newCount: j - startNew))
            }
            i += 1
            j += 1
        }
        return result
    }

    /// Splits a text into lines that keep their `\n`; a last line without one is a line too.
    static func lines(of text: [UInt8]) -> [Range<Int>] {
        var lines: [Range<Int>] = []
        var start = 0
        for (index, byte) in text.enumerated() where byte == UInt8(ascii: "\n") {
            lines.append(start..<index + 1)
            start = index + 1
        }
        if start < text.count { lines.append(start..<text.count) }
        return lines
    }

    /// xdiff's integer square root estimate: 2 to the power of half the bit length, rounded up.
    static func roughSquareRoot(_ value: Int) -> Int {
        var root = 1
        var rest = value
        while rest > 0 {
            root <<= 1
            rest >>= 2
        }
        return root
    }
}

extension LineDiff {
    /// A run of changed lines on one side, or an empty run between two unchanged lines.
    private struct Group {
        /// The first changed line, or for an empty group the unchanged line it sits above.
        var start: Int
        /// The first unchanged line after the group.
        var end: Int
        var size: Int { end - start }
    }

    /// Slides each group of changed lines on `side` as git does, keeping `other` in step.
    ///
    /// A group whose first line equals the line after it can move down a line, and one whose
    /// last line equals the line before it can move up; groups that meet merge. Each group is
    /// moved as far up, then down, as it goes; it ends lined up with the lowest position
    /// where a change on the other side faces it, else where the indent heuristic scores best.
    static func compact(_ side: inout Side, other: inout Side) {
        var group = firstGroup(side)
        var facing = firstGroup(other)
        while true {
            if group.size > 0 {
                var earliestEnd: Int
                var endFacingChange: Int?
                var size: Int
                repeat {
                    size = group.size
                    endFacingChange = nil
                    while slideUp(&side, &group) {
                        guard previousGroup(other, &facing) else {
                            preconditionFailure("groups out of step sliding up")
                        }
                    }
                    earliestEnd = group.end
                    if facing.size > 0 { endFacingChange = group.end }
                    while slideDown(&side, &group) {
                        guard nextGroup(other, &facing) else { preconditionFailure("groups out of step sliding down") }
                        if facing.size > 0 { endFacingChange = group.end }
                    }
                } while size != group.size

                if group.end == earliestEnd {
                    // It cannot move.
                } else if endFacingChange != nil {
                    while facing.size == 0 {
                        guard slideUp(&side, &group), previousGroup(other, &facing) else {
                            preconditionFailure("facing change lost")
                        }
                    }
                } else {
                    let best = bestShift(side, group: group, earliestEnd: earliestEnd)
                    while group.end > best {
                        guard slideUp(&side, &group), previousGroup(other, &facing) else {
                            preconditionFailure("best shift unreached")
                        }
                    }
                }
            }
            guard nextGroup(side, &group) else { break }
            guard nextGroup(other, &facing) else { preconditionFailure("groups out of step at the next group") }
        }
    }

    private static func firstGroup(_ side: Side) -> Group {
        var group = Group(start: 0, end: 0)
        while side.isChanged(group.end) { group.end += 1 }
        return group
    }

    /// Moves to the group after the next unchanged line; false at the end of the text.
    private static func nextGroup(_ side: Side, _ group: inout Group) -> Bool {
        guard group.end != side.count else { return false }
        group.start = group.end + 1
        group.end = group.start
        while side.isChanged(group.end) { group.end += 1 }
        return true
    }

    /// Moves to the group before the previous unchanged line; false at the start of the text.
    private static func previousGroup(_ side: Side, _ group: inout Group) -> Bool {
        guard group.start != 0 else { return false }
        group.end = group.start - 1
        group.start = group.end
        while side.isChanged(group.start - 1) { group.start -= 1 }
        return true
    }

    /// Moves the group down a line if its first line equals the line after it, absorbing a group it meets.
    private static func slideDown(_ side: inout Side, _ group: inout Group) -> Bool {
        guard group.end < side.count, side.classes[group.start] == side.classes[group.end] else { return false }
        side.setChanged(group.start, false)
        side.setChanged(group.end, true)
        group.start += 1
        group.end += 1
        while side.isChanged(group.end) { group.end += 1 }
        return true
    }

    /// Moves the group up a line if its last line equals the line before it, absorbing a group it meets.
    private static func slideUp(_ side: inout Side, _ group: inout Group) -> Bool {
        guard group.start > 0, side.classes[group.start - 1] == side.classes[group.end - 1] else { return false }
        group.start -= 1
        group.end -= 1
        side.setChanged(group.start, true)
        side.setChanged(group.end, false)
        while side.isChanged(group.start - 1) { group.start -= 1 }
        return true
    }

    // MARK: The indent heuristic

    /// The end position, among the last `size + 1` (and last 100) the group can reach,
    /// whose two boundaries look most like block boundaries; ties go to the lowest.
    private static func bestShift(_ side: Side, group: Group, earliestEnd: Int) -> Int {
        let size = group.size
        var shift = max(earliestEnd, group.end - size - 1, group.end - 100)
        var best = -1
        var bestScore = SplitScore()
        while shift <= group.end {
            var score = SplitScore()
            score.add(SplitMeasure(side, at: shift))
            score.add(SplitMeasure(side, at: shift - size))
            if best == -1 || score.compare(to: bestScore) <= 0 {
                bestScore = score
                best = shift
            }
            shift += 1
        }
        return best
    }

    /// What surrounds a boundary placed just above line `split`.
    private struct SplitMeasure {
        /// Blank runs are counted up to this many lines.
        static let blankLimit = 20

        var endOfFile: Bool
        /// The indent of the line just below the boundary (-1 when blank or at the end).
        var indent: Int
        /// Blank lines just above the boundary.
        var blankBefore = 0
        /// The indent of the nearest non-blank line above, -1 if none.
        var indentBefore = -1
        /// Blank lines after the line just below the boundary.
        var blankAfter = 0
        /// The indent of the nearest non-blank line after the line below, -1 if none.
        var indentAfter = -1

        init(_ side: Side, at split: Int) {
            endOfFile = split >= side.count
            indent = endOfFile ? -1 : side.indents[split]
            var line = split - 1
            while line >= 0 {
                indentBefore = side.indents[line]
                if indentBefore != -1 { break }
                blankBefore += 1
                if blankBefore == Self.blankLimit {
                    indentBefore = 0
                    break
                }
                line -= 1
            }
            line = split + 1
            while line < side.count {
                indentAfter = side.indents[line]
                if indentAfter != -1 { break }
                blankAfter += 1
                if blankAfter == Self.blankLimit {
                    indentAfter = 0
                    break
                }
                line += 1
            }
        }
    }

    /// The badness of a placement: the sum of its boundaries' indents and penalties.
    private struct SplitScore {
        var effectiveIndent = 0
        var penalty = 0

        /// Adds one boundary, with the weights git found best on real diffs.
        mutating func add(_ measure: SplitMeasure) {
            if measure.indentBefore == -1, measure.blankBefore == 0 { penalty += 1 }  // start of file
            if measure.endOfFile { penalty += 21 }
            let blankAfter = measure.indent == -1 ? 1 + measure.blankAfter : 0
            let totalBlank = measure.blankBefore + blankAfter
            penalty += -30 * totalBlank
            penalty += 6 * blankAfter
            let indent = measure.indent != -1 ? measure.indent : measure.indentAfter
            let anyBlanks = totalBlank != 0
            effectiveIndent += indent
            if indent == -1 || measure.indentBefore == -1 {
                // Nothing to compare with.
            } else if indent > measure.indentBefore {
                penalty += anyBlanks ? 10 : -4  // indented more than the line above
            } else if indent == measure.indentBefore {
                // Same level.
            } else if measure.indentAfter != -1, measure.indentAfter > indent {
                penalty += anyBlanks ? 17 : 24  // outdented, and what follows is indented again: a block's start
            } else {
                penalty += anyBlanks ? 17 : 23  // outdented: a block's end
            }
        }

        /// Negative when `self` is better: the indents' order counts 60, then the penalties.
        func compare(to other: SplitScore) -> Int {
            let indentOrder =
                (effectiveIndent > other.effectiveIndent ? 1 : 0) - (effectiveIndent < other.effectiveIndent ? 1 : 0)
            return 60 * indentOrder + (penalty - other.penalty)
        }
    }

    /// A line's indent as the heuristic measures it: spaces count 1, a tab moves to the next
    /// multiple of 8, other white space (`\n`, `\r`) nothing; -1 if the line is blank; at most 200.
    static func indent(of line: ArraySlice<UInt8>) -> Int {
        var columns = 0
        for byte in line {
            switch byte {
            case UInt8(ascii: " "): columns += 1
            case UInt8(ascii: "\t"): columns += 8 - columns % 8
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"): break
            default: return columns
            }
            if columns >= 200 { return 200 }
        }
        return -1
    }
}

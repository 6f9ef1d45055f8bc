extension LineDiff {
    /// Marks changed lines as xdiff does before sliding: prefix and suffix set aside,
    /// unmatchable lines discarded, and the Myers search run on the rest.
    static func markChanges(_ old: inout Side, _ new: inout Side, classCount: Int) {
        var oldCounts = [Int](repeating: 0, count: classCount)
        var newCounts = [Int](repeating: 0, count: classCount)
        for line in old.classes { oldCounts[line] += 1 }
        for line in new.classes { newCounts[line] += 1 }

        let shorter = min(old.count, new.count)
        var prefix = 0
        while prefix < shorter, old.classes[prefix] == new.classes[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < shorter - prefix, old.classes[old.count - 1 - suffix] == new.classes[new.count - 1 - suffix] {
            suffix += 1
        }

        let oldKept = keptLines(&old, in: prefix..<old.count - suffix, otherCounts: newCounts)
        let newKept = keptLines(&new, in: prefix..<new.count - suffix, otherCounts: oldCounts)
        let search = MyersSearch(old: oldKept.classes, new: newKept.classes)
        search.run()
        for (index, changed) in search.oldChanged.enumerated() where changed {
            old.setChanged(oldKept.lines[index], true)
        }
        for (index, changed) in search.newChanged.enumerated() where changed {
            new.setChanged(newKept.lines[index], true)
        }
    }

    /// The lines of `range` the search will look at; the others are marked changed.
    ///
    /// A line with no equal on the other side cannot be matched and is dropped. A line
    /// with at least √n equals on the other side (n this side's line count, at most 1024)
    /// is dropped when it sits inside a run of such lines and unmatchable ones in which
    /// the unmatchable ones are more than a quarter.
    private static func keptLines(_ side: inout Side, in range: Range<Int>, otherCounts: [Int]) -> (
        classes: [Int], lines: [Int]
    ) {
        let many = min(roughSquareRoot(side.count), 1024)
        var kind = [Matches](repeating: .none, count: side.count)
        for index in range {
            let count = otherCounts[side.classes[index]]
            kind[index] = count == 0 ? .none : count >= many ? .many : .some
        }
        var classes: [Int] = []
        var lines: [Int] = []
        for index in range {
            if kind[index] == .some || (kind[index] == .many && !isInUnmatchedRun(index, kind, range)) {
                classes.append(side.classes[index])
                lines.append(index)
            } else {
                side.setChanged(index, true)
            }
        }
        return (classes, lines)
    }

    /// How many equal lines the other side has for a line.
    private enum Matches { case none, some, many }

    /// Whether a line with many matches sits between unmatched lines, within 100 lines either way.
    private static func isInUnmatchedRun(_ index: Int, _ kind: [Matches], _ range: Range<Int>) -> Bool {
        let first = max(range.lowerBound, index - 100)
        let last = min(range.upperBound - 1, index + 100)
        var unmatched = 0
        var crowded = 1
        var probe = index - 1
        scanBefore: while probe >= first {
            switch kind[probe] {
            case .none: unmatched += 1
            case .many: crowded += 1
            case .some: break scanBefore
            }
            probe -= 1
        }
        guard unmatched > 0 else { return false }
        var unmatchedAfter = 0
        probe = index + 1
        scanAfter: while probe <= last {
            switch kind[probe] {
            case .none: unmatchedAfter += 1
            case .many: crowded += 1
            case .some: break scanAfter
            }
            probe += 1
        }
        guard unmatchedAfter > 0 else { return false }
        // The current line counts on both sides, as in xdiff.
        crowded += 1
        unmatched += unmatchedAfter
        return crowded * 4 < crowded + unmatched
    }
}

/// The Myers search xdiff runs: a middle-snake split applied recursively, with xdiff's
/// shortcuts once the edit cost grows (a long diagonal far from the corner is taken as
/// the split; past a cost limit the furthest-reaching path is).
private final class MyersSearch {
    /// A diagonal run this long counts as a good snake for the shortcut.
    private static let snakeLength = 20
    /// The cost after which the good-snake shortcut applies.
    private static let shortcutCost = 256
    /// How far ahead of the cost a diagonal's progress must be to be taken as a split.
    private static let progressFactor = 4

    /// The two sides' line classes.
    private let a: UnsafeMutablePointer<Int>
    private let b: UnsafeMutablePointer<Int>
    private let countA: Int
    private let countB: Int
    /// The marks, by position in `a` and `b`.
    private(set) var oldChanged: [Bool]
    private(set) var newChanged: [Bool]
    /// Furthest point reached on each diagonal k (-countB - 1 through countA + 1),
    /// searching forward and backward: pointers into `storage`, so `forward[k]` works for negative k.
    private let forward: UnsafeMutablePointer<Int>
    private let backward: UnsafeMutablePointer<Int>
    private let storage: UnsafeMutablePointer<Int>
    private let costLimit: Int

    init(old: [Int], new: [Int]) {
        countA = old.count
        countB = new.count
        a = .allocate(capacity: max(old.count, 1))
        b = .allocate(capacity: max(new.count, 1))
        a.initialize(from: old, count: old.count)
        b.initialize(from: new, count: new.count)
        oldChanged = [Bool](repeating: false, count: old.count)
        newChanged = [Bool](repeating: false, count: new.count)
        let diagonals = old.count + new.count + 3
        storage = .allocate(capacity: 2 * diagonals)
        storage.initialize(repeating: 0, count: 2 * diagonals)
        forward = storage + new.count + 1
        backward = storage + diagonals + new.count + 1
        costLimit = max(LineDiff.roughSquareRoot(diagonals), 256)
    }

    deinit {
        a.deallocate()
        b.deallocate()
        storage.deallocate()
    }

    /// One box still to compare: lines `low1..<high1` of `a` against `low2..<high2` of `b`.
    private struct Box {
        var low1: Int, high1: Int, low2: Int, high2: Int
        /// Whether the box must be compared without shortcuts (it came from a shortcut split).
        var minimal: Bool
    }

    func run() {
        var boxes = [Box(low1: 0, high1: countA, low2: 0, high2: countB, minimal: false)]
        while var box = boxes.popLast() {
            while box.low1 < box.high1, box.low2 < box.high2, a[box.low1] == b[box.low2] {
                box.low1 += 1
                box.low2 += 1
            }
            while box.low1 < box.high1, box.low2 < box.high2, a[box.high1 - 1] == b[box.high2 - 1] {
                box.high1 -= 1
                box.high2 -= 1
            }
            if box.low1 == box.high1 {
                for index in box.low2..<box.high2 { newChanged[index] = true }
            } else if box.low2 == box.high2 {
                for index in box.low1..<box.high1 { oldChanged[index] = true }
            } else {
                let split = self.split(box)
                boxes.append(
                    Box(low1: split.i1, high1: box.high1, low2: split.i2, high2: box.high2, minimal: split.minimalAfter)
                )
                boxes.append(
                    Box(low1: box.low1, high1: split.i1, low2: box.low2, high2: split.i2, minimal: split.minimalBefore))
            }
        }
    }

    /// Where to split a box whose corners differ: the middle snake, or a shortcut's point.
    private func split(_ box: Box) -> (i1: Int, i2: Int, minimalBefore: Bool, minimalAfter: Bool) {
        let (low1, high1, low2, high2) = (box.low1, box.high1, box.low2, box.high2)
        let lowestK = low1 - high2
        let highestK = high1 - low2
        let forwardMid = low1 - low2
        let backwardMid = high1 - high2
        let odd = (forwardMid - backwardMid) & 1 != 0
        var forwardMin = forwardMid
        var forwardMax = forwardMid
        var backwardMin = backwardMid
        var backwardMax = backwardMid
        forward[forwardMid] = low1
        backward[backwardMid] = high1

        var cost = 1
        while true {
            var goodSnake = false

            // Widen the forward range by one diagonal each way, or narrow it at the box's edge.
            if forwardMin > lowestK {
                forwardMin -= 1
                forward[forwardMin - 1] = -1
            } else {
                forwardMin += 1
            }
            if forwardMax < highestK {
                forwardMax += 1
                forward[forwardMax + 1] = -1
            } else {
                forwardMax -= 1
            }
            for k in stride(from: forwardMax, through: forwardMin, by: -2) {
                var i1 = forward[k - 1] >= forward[k + 1] ? forward[k - 1] + 1 : forward[k + 1]
                let start = i1
                var i2 = i1 - k
                while i1 < high1, i2 < high2, a[i1] == b[i2] {
                    i1 += 1
                    i2 += 1
                }
                if i1 - start > Self.snakeLength { goodSnake = true }
                forward[k] = i1
                if odd, backwardMin <= k, k <= backwardMax, backward[k] <= i1 {
                    return (i1, i2, true, true)
                }
            }

            if backwardMin > lowestK {
                backwardMin -= 1
                backward[backwardMin - 1] = Int.max
            } else {
                backwardMin += 1
            }
            if backwardMax < highestK {
                backwardMax += 1
                backward[backwardMax + 1] = Int.max
            } else {
                backwardMax -= 1
            }
            for k in stride(from: backwardMax, through: backwardMin, by: -2) {
                var i1 = backward[k - 1] < backward[k + 1] ? backward[k - 1] : backward[k + 1] - 1
                let start = i1
                var i2 = i1 - k
                while i1 > low1, i2 > low2, a[i1 - 1] == b[i2 - 1] {
                    i1 -= 1
                    i2 -= 1
                }
                if start - i1 > Self.snakeLength { goodSnake = true }
                backward[k] = i1
                if !odd, forwardMin <= k, k <= forwardMax, i1 <= forward[k] {
                    return (i1, i2, true, true)
                }
            }

            if !box.minimal {
                if goodSnake, cost > Self.shortcutCost {
                    if let point = forwardShortcut(box, forwardMin, forwardMax, forwardMid, cost) {
                        return (point.0, point.1, true, false)
                    }
                    if let point = backwardShortcut(box, backwardMin, backwardMax, backwardMid, cost) {
                        return (point.0, point.1, false, true)
                    }
                }
                if cost >= costLimit {
                    return furthestReaching(box, forwardMin, forwardMax, backwardMin, backwardMax)
                }
            }
            cost += 1
        }
    }

    /// The forward diagonal that got furthest from the start corner, counting its distance
    /// from the middle diagonal against it, if well ahead of the cost and ending a snake of
    /// `snakeLength` lines inside the box.
    private func forwardShortcut(_ box: Box, _ minK: Int, _ maxK: Int, _ mid: Int, _ cost: Int) -> (Int, Int)? {
        var best = 0
        var point: (Int, Int)?
        for k in stride(from: maxK, through: minK, by: -2) {
            let i1 = forward[k]
            let i2 = i1 - k
            let progress = (i1 - box.low1) + (i2 - box.low2) - abs(k - mid)
            guard progress > Self.progressFactor * cost, progress > best,
                box.low1 + Self.snakeLength <= i1, i1 < box.high1,
                box.low2 + Self.snakeLength <= i2, i2 < box.high2
            else { continue }
            if (1...Self.snakeLength).allSatisfy({ a[i1 - $0] == b[i2 - $0] }) {
                best = progress
                point = (i1, i2)
            }
        }
        return point
    }

    /// The same for the backward search, from the end corner.
    private func backwardShortcut(_ box: Box, _ minK: Int, _ maxK: Int, _ mid: Int, _ cost: Int) -> (Int, Int)? {
        var best = 0
        var point: (Int, Int)?
        for k in stride(from: maxK, through: minK, by: -2) {
            let i1 = backward[k]
            let i2 = i1 - k
            let progress = (box.high1 - i1) + (box.high2 - i2) - abs(k - mid)
            guard progress > Self.progressFactor * cost, progress > best,
                box.low1 < i1, i1 <= box.high1 - Self.snakeLength,
                box.low2 < i2, i2 <= box.high2 - Self.snakeLength
            else { continue }
            if (0..<Self.snakeLength).allSatisfy({ a[i1 + $0] == b[i2 + $0] }) {
                best = progress
                point = (i1, i2)
            }
        }
        return point
    }

    /// When the cost limit is reached: whichever of the two searches got further, as the split.
    private func furthestReaching(
        _ box: Box, _ forwardMin: Int, _ forwardMax: Int, _ backwardMin: Int, _ backwardMax: Int
    )
        -> (i1: Int, i2: Int, minimalBefore: Bool, minimalAfter: Bool)
    {
        var forwardBest = -1
        var forwardBest1 = -1
        for k in stride(from: forwardMax, through: forwardMin, by: -2) {
            var i1 = min(forward[k], box.high1)
            var i2 = i1 - k
            if box.high2 < i2 {
                i1 = box.high2 + k
                i2 = box.high2
            }
            if forwardBest < i1 + i2 {
                forwardBest = i1 + i2
                forwardBest1 = i1
            }
        }
        var backwardBest = Int.max
        var backwardBest1 = Int.max
        for k in stride(from: backwardMax, through: backwardMin, by: -2) {
            var i1 = max(box.low1, backward[k])
            var i2 = i1 - k
            if i2 < box.low2 {
                i1 = box.low2 + k
                i2 = box.low2
            }
            if i1 + i2 < backwardBest {
                backwardBest = i1 + i2
                backwardBest1 = i1
            }
        }
        if (box.high1 + box.high2) - backwardBest < forwardBest - (box.low1 + box.low2) {
            return (forwardBest1, forwardBest - forwardBest1, true, false)
        }
        return (backwardBest1, backwardBest - backwardBest1, false, true)
    }
}

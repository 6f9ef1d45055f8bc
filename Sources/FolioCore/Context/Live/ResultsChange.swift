/// How a live result changed in one update, as offsets: what to remove from the list as it
/// was, what to insert into it as it is now, which rows moved and which changed in place,
/// the shape of a table view's batch update.
public struct ResultsChange: Sendable, Equatable {
    /// A row that moved: its offset before and after.
    public struct Move: Sendable, Equatable {
        /// The row's offset in the results before the update.
        public var from: Int
        /// The row's offset in the results after the update.
        public var to: Int
    }

    /// Offsets in the results before the update, ascending.
    public var removed: [Int] = []
    /// Offsets in the results after the update, ascending.
    public var inserted: [Int] = []
    /// Rows whose document changed so that their place among the others did too.
    public var moved: [Move] = []
    /// Offsets after the update of rows whose document changed but whose place did not.
    public var updated: [Int] = []

    /// Whether nothing changed.
    public var isEmpty: Bool { removed.isEmpty && inserted.isEmpty && moved.isEmpty && updated.isEmpty }

    /// The change from `old` to `new`, where `touched` holds the identities whose documents
    /// changed. Of the rows both lists hold, the fewest are reported moved (those off a
    /// longest run kept in order); a touched row that did not move is updated.
    static func between<ID: Hashable>(_ old: [ID], _ new: [ID], touched: Set<ID>) -> ResultsChange {
        var change = ResultsChange()
        let oldOffsets = Dictionary(uniqueKeysWithValues: old.enumerated().map { ($1, $0) })
        let newOffsets = Dictionary(uniqueKeysWithValues: new.enumerated().map { ($1, $0) })
        change.removed = old.indices.filter { newOffsets[old[$0]] == nil }
        change.inserted = new.indices.filter { oldOffsets[new[$0]] == nil }
        let kept = new.filter { oldOffsets[$0] != nil }
        let inOrder = longestIncreasingRun(kept.map { oldOffsets[$0]! })
        for (place, id) in kept.enumerated() {
            if !inOrder.contains(place) {
                change.moved.append(Move(from: oldOffsets[id]!, to: newOffsets[id]!))
            } else if touched.contains(id) {
                change.updated.append(newOffsets[id]!)
            }
        }
        return change
    }

    /// The change when only the rows of some identities may have changed place (the others
    /// kept their sort keys, so their order), from where those rows were (`before`, offsets
    /// in the old list) and are (`after`, in the new): a row in both moved if the number of
    /// other rows before it changed, or if it changed places with another changed row; else it
    /// was updated. Works on the changed rows alone.
    static func placing<ID: Hashable>(before: [ID: Int], after: [ID: Int]) -> ResultsChange {
        let touchedBefore = before.values.sorted()
        let touchedAfter = after.values.sorted()
        /// How many rows that are not touched come before `offset`.
        func othersBefore(_ offset: Int, touched: [Int]) -> Int {
            var low = 0
            var high = touched.count
            while low < high {
                let middle = (low + high) / 2
                if touched[middle] < offset { low = middle + 1 } else { high = middle }
            }
            return offset - low
        }
        var change = ResultsChange()
        change.removed = before.filter { after[$0.key] == nil }.map(\.value).sorted()
        change.inserted = after.filter { before[$0.key] == nil }.map(\.value).sorted()
        // A row whose count of other rows before it changed moved. Of the rest, two that changed
        // places between the same neighbours moved too, relative to each other: the fewest are
        // reported moved (those off a longest run kept in order), as `between` does, so that
        // the offsets replayed by identity, as a table view's batch update is, give the new list.
        let kept = after.sorted(by: { $0.value < $1.value }).compactMap { id, now in
            before[id].map { (then: $0, now: now) }
        }
        let stayed = kept.indices.filter {
            othersBefore(kept[$0].then, touched: touchedBefore) == othersBefore(kept[$0].now, touched: touchedAfter)
        }
        let inOrder = Set(longestIncreasingRun(stayed.map { kept[$0].then }).map { stayed[$0] })
        for (place, row) in kept.enumerated() {
            if inOrder.contains(place) {
                change.updated.append(row.now)
            } else {
                change.moved.append(Move(from: row.then, to: row.now))
            }
        }
        return change
    }

    /// The positions of a longest increasing subsequence of `values` (patience sorting).
    private static func longestIncreasingRun(_ values: [Int]) -> Set<Int> {
        var tails: [Int] = []  // positions of the smallest tail of each run length
        var previous = [Int](repeating: -1, count: values.count)
        for (position, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[position] = tails[low - 1] }
            if low == tails.count { tails.append(position) } else { tails[low] = position }
        }
        var run = Set<Int>()
        var position = tails.last ?? -1
        while position >= 0 {
            run.insert(position)
            position = previous[position]
        }
        return run
    }
}

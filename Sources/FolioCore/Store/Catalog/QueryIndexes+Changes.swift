import FolioJSON
import Foundation

extension QueryIndexes.EntityIndexes {
    /// Brings the table and its indexes up to `generation` by following the documents at
    /// the `changed` paths (added, replaced or removed since the table was made), instead
    /// of reading every document again: a query right after a save costs about the
    /// changes, where a rebuild cost a pass over the whole entity (a third of a second
    /// at 100,000 documents).
    ///
    /// Rows stay in store order. Those before the first change keep their positions; the
    /// rest are merged with the changed documents, and every index entry from that point
    /// on is moved to its row's new position.
    mutating func follow(
        _ changed: Set<DocumentPath>, in catalog: inout Catalog, entity: QuerySchema.Entity, generation: UInt64
    ) {
        self.generation = generation
        var removed: [Int] = []  // ascending, as the paths are sorted
        var added: [QueryIndexes.Row] = []
        for path in changed.sorted() {
            if let position = position(of: path) { removed.append(position) }
            if let (source, version) = catalog.storedContent(at: path), let content = source.object {
                added.append(
                    QueryIndexes.Row(
                        version: version, source: source, isDeleted: content[ReservedKey.deleted] != nil))
            }
        }
        let firstAdded = added.first.map { row in rows.partitioningIndex { $0.path >= row.path } } ?? rows.count
        let first = min(removed.first ?? rows.count, firstAdded)

        // Where the rows from `first` on go: `moved[old - first]` is an old row's new
        // position (-1 for a row that went), `addedPositions` the changed documents'.
        var moved = [Int](repeating: -1, count: rows.count - first)
        var addedPositions: [Int] = []
        var (nextRemoved, nextAdded, next) = (0, 0, first)
        for old in first..<rows.count {
            if nextRemoved < removed.count, removed[nextRemoved] == old {
                nextRemoved += 1
                continue
            }
            while nextAdded < added.count, added[nextAdded].path < rows[old].path {
                addedPositions.append(next)
                (next, nextAdded) = (next + 1, nextAdded + 1)
            }
            moved[old - first] = next
            next += 1
        }
        addedPositions += next..<(next + added.count - nextAdded)
        if removed.count + added.count <= 8 {
            // A few rows out and in, each moving the rows after it along in one block:
            // copying the rows instead retained and released every document they hold.
            for position in removed.reversed() { rows.remove(at: position) }
            for (row, position) in zip(added, addedPositions) { rows.insert(row, at: position) }
        } else {
            var merged = Array(rows[..<first])
            merged.reserveCapacity(rows.count - removed.count + added.count)
            var placed = 0
            for old in first..<rows.count where moved[old - first] >= 0 {
                while placed < added.count, addedPositions[placed] == merged.count {
                    merged.append(added[placed])
                    placed += 1
                }
                merged.append(rows[old])
            }
            merged += added[placed...]
            rows = merged
        }

        Self.move(&values, from: first, to: moved)
        Self.move(&deletedValues, from: first, to: moved)
        let reading = QueryIndexes.KeyReading(entity)
        for (row, position) in zip(added, addedPositions) {
            for (index, properties) in reading.declared.enumerated() {
                let key = reading.key(index) { row.content[$0] }
                if row.isDeleted {
                    deletedValues[properties, default: [:]][key, default: []].insertInOrder(position)
                } else {
                    values[properties, default: [:]][key, default: []].insertInOrder(position)
                }
            }
        }

        // Days that start before `first` start where they did; the rest are found again.
        let keptDays = dayStarts.partitioningIndex { $0 >= first }
        days.removeSubrange(keptDays...)
        dayStarts.removeSubrange(keptDays...)
        for position in first..<rows.count where days.last != rows[position].path.day {
            days.append(rows[position].path.day)
            dayStarts.append(position)
        }

        for property in Array(ordered.keys) {
            guard var entries = ordered.removeValue(forKey: property) else { continue }
            // Moving positions keeps the order: ties stay in store order.
            var kept = 0
            for index in entries.indices {
                let position = entries[index].position
                let now = position < first ? position : moved[position - first]
                guard now >= 0 else { continue }
                entries[kept] = (entries[index].value, now)
                kept += 1
            }
            entries.removeSubrange(kept...)
            let described = entity.property(named: property)
            for (row, position) in zip(added, addedPositions) {
                let value = QueryValue(stored: row.content[property] ?? .null, as: described)
                let at = entries.partitioningIndex { entry in
                    switch entry.value.sortOrder(value) {
                    case .orderedAscending: false
                    case .orderedDescending: true
                    case .orderedSame: entry.position > position
                    }
                }
                entries.insert((value, position), at: at)
            }
            ordered[property] = entries
        }
    }

    /// The position of the row at `path`, if the table has one.
    private func position(of path: DocumentPath) -> Int? {
        let position = rows.partitioningIndex { $0.path >= path }
        return position < rows.count && rows[position].path == path ? position : nil
    }

    /// Moves a value index's entries from `first` on to their rows' new positions,
    /// dropping those of rows that went, and keys left with none.
    private static func move(_ index: inout [[String]: [[QueryValue]: [Int]]], from first: Int, to moved: [Int]) {
        for properties in Array(index.keys) {
            // Swapped out, so the entries are the only reference and change in place
            // (iterating `values.indices` held a second one: a copy of the whole index).
            var entries: [[QueryValue]: [Int]] = [:]
            swap(&entries, &index[properties]!)
            var emptied = false
            var key = entries.values.startIndex
            while key != entries.values.endIndex {
                entries.values[key].move(from: first, to: moved)
                if entries.values[key].isEmpty { emptied = true }
                entries.values.formIndex(after: &key)
            }
            index[properties] = emptied ? entries.filter { !$0.value.isEmpty } : entries
        }
    }
}

extension [Int] {
    /// Moves ascending positions from `first` on to `moved[position - first]`, dropping
    /// those moved to -1; the order stays ascending, as the moves keep it.
    fileprivate mutating func move(from first: Int, to moved: [Int]) {
        guard let last, last >= first else { return }  // most keys, after a change near the end
        var kept = partitioningIndex { $0 >= first }
        for index in kept..<count where moved[self[index] - first] >= 0 {
            self[kept] = moved[self[index] - first]
            kept += 1
        }
        removeSubrange(kept...)
    }

    /// Inserts a position into ascending positions.
    fileprivate mutating func insertInOrder(_ position: Int) {
        insert(position, at: partitioningIndex { $0 > position })
    }
}

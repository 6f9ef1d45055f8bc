/// The catalog's entries: one dense array, and positions in it found by identity through an
/// open-addressing table of 32-bit positions (linear probing, at most half full).
///
/// A `Dictionary` of identities to entries kept each entry beside a copy of its key in a
/// table grown in powers of two at three quarters full: 168 bytes a bucket, half of them
/// empty just after a grow, 344 KB for 1,000 documents. Here an entry takes its own size and
/// the index 8 bytes (128 KB for the same 1,000), and a pass over every entry reads one array.
struct CatalogEntries {
    /// Every entry, in no particular order (a removal moves the last one into its place).
    private(set) var values: [Catalog.Entry] = []
    /// Positions in `values`, `empty` where none; the count is zero or a power of two.
    private var slots: [Int32] = []
    private static let empty: Int32 = -1

    var count: Int { values.count }

    /// The position of the entry with this identity.
    func position(of identity: PersistentIdentifier) -> Int? {
        guard !slots.isEmpty else { return nil }
        let position = slots[slot(of: identity)]
        return position == Self.empty ? nil : Int(position)
    }

    /// The entry with this identity.
    func entry(for identity: PersistentIdentifier) -> Catalog.Entry? {
        position(of: identity).map { values[$0] }
    }

    /// Makes room for `count` entries in all without growing again.
    mutating func reserveCapacity(_ count: Int) {
        values.reserveCapacity(count)
        if count * 2 > slots.count { rebuildSlots(capacity: count) }
    }

    /// Puts the entry in place of the one with its identity, or adds it; `true` when added.
    @discardableResult
    mutating func put(_ entry: Catalog.Entry) -> Bool {
        let identity = PersistentIdentifier(entry.path)
        if let position = position(of: identity) {
            values[position] = entry
            return false
        }
        if (values.count + 1) * 2 > slots.count { rebuildSlots(capacity: max(values.count + 1, 8) * 2) }
        slots[slot(of: identity)] = Int32(values.count)
        values.append(entry)
        return true
    }

    /// Marks the entry at `position` as found by `walk`.
    mutating func setLastSeen(_ walk: UInt32, at position: Int) { values[position].lastSeen = walk }

    /// Marks the entry at `position` as verified.
    mutating func setVerified(at position: Int) { values[position].verified = true }

    /// Gives the entry at `position` another stamp for the same content.
    mutating func setStamp(_ stamp: FileStamp, verified: Bool, at position: Int) {
        values[position].stamp = stamp
        values[position].verified = verified
    }

    /// Removes the entry at `position`; the last entry takes its place.
    mutating func remove(at position: Int) {
        removeSlot(slot(of: PersistentIdentifier(values[position].path)))
        let last = values.count - 1
        if position != last {
            slots[slot(of: PersistentIdentifier(values[last].path))] = Int32(position)
            values.swapAt(position, last)
        }
        values.removeLast()
    }

    /// Removes every entry that satisfies `shouldRemove`.
    mutating func removeAll(where shouldRemove: (Catalog.Entry) -> Bool) {
        values.removeAll(where: shouldRemove)
        rebuildSlots(capacity: values.count)
    }

    /// The slot that holds the identity's position, or the empty slot where it would go.
    private func slot(of identity: PersistentIdentifier) -> Int {
        let mask = slots.count - 1
        var slot = identity.hashValue & mask
        while slots[slot] != Self.empty {
            let entry = values[Int(slots[slot])]
            if entry.path.id == identity.id, entry.path.entity == identity.entityName { return slot }
            slot = (slot + 1) & mask
        }
        return slot
    }

    /// Empties a slot, moving later ones of its run back so that every position stays
    /// reachable from its identity's home slot without a gap (no tombstones).
    private mutating func removeSlot(_ removed: Int) {
        let mask = slots.count - 1
        var hole = removed
        var next = (removed + 1) & mask
        while slots[next] != Self.empty {
            let home = PersistentIdentifier(values[Int(slots[next])].path).hashValue & mask
            // The entry at `next` may fill the hole unless its home lies in (hole, next].
            let homeIsBetween = hole <= next ? (hole < home && home <= next) : (hole < home || home <= next)
            if !homeIsBetween {
                slots[hole] = slots[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        slots[hole] = Self.empty
    }

    /// A table of at least twice `capacity` slots (a power of two) holding every entry.
    private mutating func rebuildSlots(capacity: Int) {
        precondition(values.count < Int(Int32.max), "more documents than a catalog can number")
        var size = 8
        while size < capacity * 2 { size *= 2 }
        slots = [Int32](repeating: Self.empty, count: size)
        for position in values.indices {
            slots[slot(of: PersistentIdentifier(values[position].path))] = Int32(position)
        }
    }
}

import FolioJSON

/// Who last set one member of a record to the value it holds: the answer of
/// `RecordHistory.blame()` for one member.
public struct PropertyBlame: Sendable, Hashable {
    /// The member's name.
    public var name: String
    /// Its value in the newest version of the record.
    public var value: JSONValue
    /// The newest commit that changed the member, which set this value; nil when no
    /// readable change did (the versions around it did not parse).
    public var change: RecordChange?
}

extension RecordHistory {
    /// For each member of the record's newest version (in its order), the newest commit that
    /// changed it: the one that set its current value. Empty when the record was purged, or
    /// its newest version does not parse. A value that a merge combined from both sides is
    /// set, in this answer, by the merge.
    public func blame() -> [PropertyBlame] {
        guard let newest = changes.first, let content = newest.content else { return [] }
        return content.map { member in
            PropertyBlame(name: member.key, value: member.value, change: setting(member.key))
        }
    }

    /// The newest change that set a member; `$deleted` is set by a soft delete. Nil past a
    /// change whose versions did not parse.
    private func setting(_ name: String) -> RecordChange? {
        for change in changes {
            if change.unreadable != nil { return nil }
            if name == "$deleted" ? change.kind == .deleted : change.properties.contains(where: { $0.name == name }) {
                return change
            }
        }
        return nil
    }
}

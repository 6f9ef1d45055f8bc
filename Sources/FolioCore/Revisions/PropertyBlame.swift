import FolioJSON

/// Who last set one member of a record to the value it holds: the answer of
/// `RecordHistory.blame()` for one member.
public struct PropertyBlame: Sendable, Hashable {
    /// The member's name.
    public var name: String
    /// Its value in the newest version of the record; `.null` for an `.externalStorage`
    /// property, whose value is the file `blob` names.
    public var value: JSONValue
    /// For an `.externalStorage` property, its file in the newest version of the record.
    public var blob: StoredBlob?
    /// The newest commit that changed the member, which set this value; nil when no
    /// readable change did (the versions around it did not parse).
    public var change: RecordChange?
}

extension RecordHistory {
    /// For each member of the record's newest version (in its order), then each of its
    /// `.externalStorage` files (by name), the newest commit that changed it: the one that
    /// set its current value. Empty when the record was purged, or its newest version does
    /// not parse. A value that a merge combined from both sides is set, in this answer, by
    /// the merge.
    public func blame() -> [PropertyBlame] {
        guard let newest = changes.first, let content = newest.content else { return [] }
        let members = content.map { member in
            PropertyBlame(name: member.key, value: member.value, change: setting(member.key))
        }
        // A file's newest change tells whether the record holds it still.
        var files: [String: (blob: StoredBlob?, change: RecordChange)] = [:]
        for change in changes {
            for property in change.properties where property.isBlob && files[property.name] == nil {
                files[property.name] = (property.newBlob, change)
            }
        }
        let blobs = files.sorted { $0.key < $1.key }.compactMap { name, file in
            file.blob.map { PropertyBlame(name: name, value: .null, blob: $0, change: file.change) }
        }
        return members + blobs
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

import FolioJSON

/// One property of a record that a commit changed: its value before and after, as stored
/// (a relationship holds the related record's UUID, or a list of them). An
/// `.externalStorage` property is no member of the document but a file beside it: its
/// change is told by `oldBlob` and `newBlob`, and `old` and `new` are nil.
public struct PropertyChange: Sendable, Hashable {
    /// The member's name: a property of the model, or a `$` member such as `$version`.
    public var name: String
    /// The value before the commit; nil where the record had no such member (or did not exist).
    public var old: JSONValue?
    /// The value after the commit; nil where the record has no such member (or was purged).
    public var new: JSONValue?
    /// For an `.externalStorage` property, its file before the commit; nil where there was none.
    public var oldBlob: StoredBlob?
    /// For an `.externalStorage` property, its file after the commit; nil where there is none.
    public var newBlob: StoredBlob?

    /// Whether the change is of an `.externalStorage` property's file.
    public var isBlob: Bool { oldBlob != nil || newBlob != nil }

    /// A change of one member.
    public init(name: String, old: JSONValue?, new: JSONValue?) {
        self.name = name
        self.old = old
        self.new = new
        oldBlob = nil
        newBlob = nil
    }

    /// A change of one `.externalStorage` property's file.
    public init(name: String, oldBlob: StoredBlob?, newBlob: StoredBlob?) {
        self.name = name
        old = nil
        new = nil
        self.oldBlob = oldBlob
        self.newBlob = newBlob
    }

    /// The members that differ between two versions of a record, in the newer one's order
    /// and then those it no longer has. `$deleted` is left out: a change's kind says it.
    static func differences(from old: JSONObject?, to new: JSONObject?) -> [PropertyChange] {
        var changes: [PropertyChange] = []
        for member in new ?? JSONObject() where member.key != ReservedKey.deleted && old?[member.key] != member.value {
            changes.append(PropertyChange(name: member.key, old: old?[member.key], new: member.value))
        }
        for member in old ?? JSONObject() where member.key != ReservedKey.deleted && new?[member.key] == nil {
            changes.append(PropertyChange(name: member.key, old: member.value, new: nil))
        }
        return changes
    }

    /// The `.externalStorage` files that differ between two versions of a record, each of
    /// the record's changed files given by its property and its blob before and after (nil
    /// where there was none; a file that moved is two, one gone and one new): a file that
    /// only moved with its document (same bytes) is no change.
    static func differences(ofBlobs files: [(property: String, old: StoredBlob?, new: StoredBlob?)])
        -> [PropertyChange]
    {
        var old: [String: StoredBlob] = [:]
        var new: [String: StoredBlob] = [:]
        for file in files {
            if let blob = file.old { old[file.property] = blob }
            if let blob = file.new { new[file.property] = blob }
        }
        return differences(fromBlobs: old, toBlobs: new)
    }

    /// The `.externalStorage` files that differ between two versions of a record, each
    /// version's files by property: the same bytes (git's id) are no change.
    static func differences(fromBlobs old: [String: StoredBlob], toBlobs new: [String: StoredBlob]) -> [PropertyChange]
    {
        Set(old.keys).union(new.keys).sorted().compactMap { name in
            old[name]?.object == new[name]?.object
                ? nil : PropertyChange(name: name, oldBlob: old[name], newBlob: new[name])
        }
    }
}

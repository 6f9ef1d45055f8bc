import FolioJSON

/// One member of a record that a commit changed: its value before and after, as stored
/// (a relationship holds the related record's UUID, or a list of them).
public struct PropertyChange: Sendable, Hashable {
    /// The member's name: a property of the model, or a `$` member such as `$version`.
    public var name: String
    /// The value before the commit; nil where the record had no such member (or did not exist).
    public var old: JSONValue?
    /// The value after the commit; nil where the record has no such member (or was purged).
    public var new: JSONValue?

    /// A change of one member.
    public init(name: String, old: JSONValue?, new: JSONValue?) {
        (self.name, self.old, self.new) = (name, old, new)
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
}

import FolioJSON

/// One property both sides of a merge changed to different values, as the document's
/// `"$conflicts"` member records it until a person settles it.
///
/// On disk: `"$conflicts": {"<property>": {"base": v0, "ours": v1, "theirs": v2}}`, after
/// the other metadata. A side that removed the property (or a base that never had it,
/// when both sides added the document) has no member; the property itself holds ours'
/// value meanwhile, so the document stays one that Folio and its models can read.
public struct MergeConflict: Sendable, Equatable {
    /// The metadata member that holds a document's conflicts.
    public static let key = "$conflicts"

    /// The property's name.
    public var property: String
    /// Its value in the common ancestor, `nil` when absent there.
    public var base: JSONValue?
    /// Its value on our side (the branch merged into), `nil` when our side removed it.
    public var ours: JSONValue?
    /// Its value on their side (the branch merged in), `nil` when their side removed it.
    public var theirs: JSONValue?

    /// A conflict on a property.
    public init(property: String, base: JSONValue?, ours: JSONValue?, theirs: JSONValue?) {
        self.property = property
        self.base = base
        self.ours = ours
        self.theirs = theirs
    }

    /// The conflict's entry in `"$conflicts"`.
    public var json: JSONValue {
        var entry = JSONObject()
        entry["base"] = base
        entry["ours"] = ours
        entry["theirs"] = theirs
        return .object(entry)
    }

    /// The conflicts a document records, in the order written; entries that are not
    /// objects are read as conflicts with nothing known.
    public static func recorded(in content: JSONObject) -> [MergeConflict] {
        guard let entries = content[key]?.objectValue else { return [] }
        return entries.map { member in
            let entry = member.value.objectValue ?? [:]
            return MergeConflict(
                property: member.key, base: entry["base"], ours: entry["ours"], theirs: entry["theirs"])
        }
    }

    /// Writes `conflicts` into a document as its `"$conflicts"` member, after the other
    /// metadata, or removes the member when there are none.
    public static func record(_ conflicts: [MergeConflict], in content: inout JSONObject) {
        content.removeValue(forKey: key)
        guard !conflicts.isEmpty else { return }
        let entries = JSONObject(conflicts.map { ($0.property, $0.json) })
        content.insert(.object(entries), forKey: key, at: content.keys.prefix { $0.hasPrefix("$") }.count)
    }
}

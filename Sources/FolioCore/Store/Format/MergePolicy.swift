import FolioJSON

/// How `folio merge-driver` settles a property both sides of a git merge changed to
/// different values; kept in the manifest as `"merge": {"conflicts": ..., "timestamps": [...]}`.
///
/// The default, `keepBoth`, chooses nothing: the document keeps our value and records
/// both in `"$conflicts"` for a person (`folio resolve`). `newest` lets the side whose
/// timestamp property (the first of `timestampProperties` both sides hold as a date) is
/// later win every conflicting property; without such a property, or with equal times,
/// it keeps both as `keepBoth` does.
public struct MergePolicy: Sendable, Equatable {
    /// What to do with a property both sides changed differently.
    public enum Conflicts: String, Sendable, CaseIterable {
        /// Keep our value, record both in `"$conflicts"`, and let a person settle it.
        case keepBoth = "keep-both"
        /// Take the value of the side that changed the document last, by its timestamp property.
        case newest
    }

    /// The timestamp properties `newest` looks for when the manifest names none.
    public static let defaultTimestampProperties = ["updatedAt", "modifiedAt"]

    /// What to do with a real conflict.
    public var conflicts: Conflicts
    /// The properties that tell when a document was last changed, in order of preference.
    public var timestampProperties: [String]

    /// A policy; the default keeps both values of every conflict.
    public init(
        conflicts: Conflicts = .keepBoth, timestampProperties: [String] = MergePolicy.defaultTimestampProperties
    ) {
        self.conflicts = conflicts
        self.timestampProperties = timestampProperties
    }

    /// The policy a manifest's `"merge"` member describes; throws for values it does not know.
    ///
    /// - Throws: `.invalidStore` when the member is not an object or holds a value it does not know.
    public init(json: JSONValue, path: String) throws(FolioError) {
        self.init()
        guard let object = json.objectValue else {
            throw .invalidStore(
                path: path, reason: "the manifest's \"merge\" must be an object like {\"conflicts\": \"keep-both\"}")
        }
        if let value = object["conflicts"] {
            guard let text = value.stringValue, let conflicts = Conflicts(rawValue: text) else {
                let known = Conflicts.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
                throw .invalidStore(
                    path: path, reason: "the manifest's \"merge\".\"conflicts\" is \(value); it must be \(known)")
            }
            self.conflicts = conflicts
        }
        if let value = object["timestamps"] {
            guard let names = value.arrayValue?.compactMap(\.stringValue), names.count == value.arrayValue?.count else {
                throw .invalidStore(
                    path: path, reason: "the manifest's \"merge\".\"timestamps\" must be an array of property names")
            }
            timestampProperties = names
        }
    }

    /// The manifest's `"merge"` member for this policy.
    public var json: JSONValue {
        ["conflicts": .string(conflicts.rawValue), "timestamps": .array(timestampProperties.map(JSONValue.string))]
    }
}

import FolioJSON

/// Which recorded value settles a conflict.
public enum MergeChoice: String, Sendable, CaseIterable {
    /// The value of our side, which the property already holds.
    case ours
    /// The value of their side.
    case theirs
    /// The value of the common ancestor.
    case base
}

extension MergeConflict {
    /// A document with conflicts settled: each property named in `values` takes that value,
    /// every other conflict the side `choice` names (none when `nil`); a side without the
    /// property removes it. Settled conflicts leave `"$conflicts"`, which goes when empty.
    ///
    /// Throws when the document records no conflicts, or a value names a property that is
    /// not in conflict (change that with `folio set`).
    ///
    /// - Throws: `.invalidInput` when the document records no conflicts or a value names a
    ///   property that is not in conflict.
    public static func resolving(_ content: JSONObject, choice: MergeChoice?, values: JSONObject, path: String)
        throws(FolioError) -> JSONObject
    {
        let conflicts = recorded(in: content)
        guard !conflicts.isEmpty else {
            throw .invalidInput("\(path) records no merge conflicts (no \"\(key)\"); change values with `folio set`")
        }
        let conflicting = Set(conflicts.map(\.property))
        for name in values.keys where !conflicting.contains(name) {
            throw .invalidInput(
                "\(path): \"\(name)\" is not in conflict (the conflicts are \(conflicts.map(\.property).joined(separator: ", "))); change it with `folio set`"
            )
        }
        var result = content
        var remaining: [MergeConflict] = []
        for conflict in conflicts {
            if let value = values[conflict.property] {
                result[conflict.property] = value
                continue
            }
            switch choice {
            case nil: remaining.append(conflict)
            case .ours: result[conflict.property] = conflict.ours
            case .theirs: result[conflict.property] = conflict.theirs
            case .base: result[conflict.property] = conflict.base
            }
        }
        record(remaining, in: &result)
        return result
    }
}

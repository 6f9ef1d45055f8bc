import FolioJSON
import Foundation

/// A three-way merge of one document by member, not by line: what `folio merge-driver`
/// does for git with each document both branches changed.
///
/// For each member, with its values in the common ancestor (base), ours and theirs:
/// - a change on one side only is taken (a member added, changed or removed);
/// - both sides making the same change is taken once, with no conflict;
/// - to-many relationships stored as sorted arrays of identities (`setProperties`) merge as
///   sets: what either side added is in, what either side removed is out;
/// - `"$deleted"` set on one side and other members edited on the other keeps both, the
///   edit and the tombstone, so `restore` brings back the edited document; two deletions
///   keep the earlier stamp;
/// - `"$version"` changed differently keeps the newer schema version (`check` reports skew);
/// - `"$conflicts"` recorded differently by both sides keeps the entries of both;
/// - any other property both sides changed differently is a conflict: the policy's `newest`
///   gives it to the side with the later timestamp, else the result keeps our value and
///   records all three in `"$conflicts"` (see `MergeConflict`).
///
/// Members stay in our order; a member only their side has goes after the member that
/// precedes it on their side. Both sides adding the same document merges against an
/// empty base: equal members are taken, differing ones conflict.
public struct DocumentMerge: Sendable {
    /// How real conflicts are settled.
    public var policy: MergePolicy
    /// Properties whose values are sorted arrays of identities that merge as sets.
    public var setProperties: Set<String>

    /// A merge with this policy and these set-valued properties.
    public init(policy: MergePolicy = MergePolicy(), setProperties: Set<String> = []) {
        self.policy = policy
        self.setProperties = setProperties
    }

    /// What a merge made: the document, and the conflicts it records for a person.
    public struct Result: Sendable, Equatable {
        /// The merged document, `"$conflicts"` included when there are any.
        public var content: JSONObject
        /// The conflicts left for a person, also recorded in `content`.
        public var conflicts: [MergeConflict]
        /// Conflicting properties the policy settled (by the newer timestamp).
        public var settledByPolicy: [String]
    }

    /// Merges ours and theirs against their common ancestor (`nil` when both sides added the document).
    public func merge(base: JSONObject?, ours: JSONObject, theirs: JSONObject) -> Result {
        let base = base ?? [:]
        var merged = JSONObject()
        var conflicts: [MergeConflict] = []
        for key in Self.keyOrder(ours: ours, theirs: theirs) where key != MergeConflict.key {
            let (b, o, t) = (base[key], ours[key], theirs[key])
            if o == t || t == b {
                merged[key] = o
            } else if o == b {
                merged[key] = t
            } else if let value = metadataMerge(key, ours: o, theirs: t) ?? setMerge(key, base: b, ours: o, theirs: t) {
                merged[key] = value
            } else {
                merged[key] = o
                conflicts.append(MergeConflict(property: key, base: b, ours: o, theirs: t))
            }
        }
        var settled: [String] = []
        if !conflicts.isEmpty, let winner = newerSide(ours: ours, theirs: theirs) {
            for conflict in conflicts {
                merged[conflict.property] = winner == .ours ? conflict.ours : conflict.theirs
            }
            settled = conflicts.map(\.property)
            conflicts = []
        }
        let carried = carriedConflicts(base: base, ours: ours, theirs: theirs, merged: merged, new: conflicts)
        MergeConflict.record(carried + conflicts, in: &merged)
        return Result(content: merged, conflicts: carried + conflicts, settledByPolicy: settled)
    }

    /// Our keys in our order, then each key only theirs has, after its predecessor there.
    static func keyOrder(ours: JSONObject, theirs: JSONObject) -> [String] {
        var keys = ours.keys
        var present = Set(keys)
        for (position, key) in theirs.keys.enumerated() where !present.contains(key) {
            let predecessor = theirs.keys[..<position].last { present.contains($0) }
            let at = predecessor.flatMap { keys.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
            keys.insert(key, at: at)
            present.insert(key)
        }
        return keys
    }

    /// Metadata both sides changed differently that has a right answer: the earlier
    /// deletion, the newer schema version.
    private func metadataMerge(_ key: String, ours: JSONValue?, theirs: JSONValue?) -> JSONValue? {
        switch key {
        case ReservedKey.deleted:
            guard let ours, let theirs else { return nil }
            guard let oursDate = try? Date(json: ours), let theirsDate = try? Date(json: theirs) else { return nil }
            return oursDate <= theirsDate ? ours : theirs
        case ReservedKey.version:
            guard let oursText = ours?.stringValue, let theirsText = theirs?.stringValue,
                let oursVersion = Schema.Version(oursText), let theirsVersion = Schema.Version(theirsText)
            else { return nil }
            return oursVersion >= theirsVersion ? ours : theirs
        default:
            return nil
        }
    }

    /// A set-valued property merged as sets: in when both have it or one side added it.
    private func setMerge(_ key: String, base: JSONValue?, ours: JSONValue?, theirs: JSONValue?) -> JSONValue? {
        guard setProperties.contains(key), let oursValues = ours?.arrayValue, let theirsValues = theirs?.arrayValue
        else { return nil }
        let baseSet = Set(base?.arrayValue ?? [])
        let (oursSet, theirsSet) = (Set(oursValues), Set(theirsValues))
        let kept = oursSet.intersection(theirsSet).union(oursSet.subtracting(baseSet)).union(
            theirsSet.subtracting(baseSet))
        guard kept.allSatisfy({ $0.stringValue != nil }) else { return nil }
        return .array(kept.sorted { $0.stringValue! < $1.stringValue! })
    }

    private enum Side { case ours, theirs }

    /// The side whose timestamp is later, when the policy is `newest` and both sides hold one.
    private func newerSide(ours: JSONObject, theirs: JSONObject) -> Side? {
        guard policy.conflicts == .newest else { return nil }
        for name in policy.timestampProperties {
            guard let oursValue = ours[name], let theirsValue = theirs[name],
                let oursDate = try? Date(json: oursValue), let theirsDate = try? Date(json: theirsValue)
            else { continue }
            if oursDate == theirsDate { return nil }
            return oursDate > theirsDate ? .ours : .theirs
        }
        return nil
    }

    /// Conflicts either side already recorded and nobody settled, except those on
    /// properties that conflict anew; ours first.
    private func carriedConflicts(
        base: JSONObject, ours: JSONObject, theirs: JSONObject, merged: JSONObject, new: [MergeConflict]
    ) -> [MergeConflict] {
        let settledInBase = Set(MergeConflict.recorded(in: base).map(\.property))
        let oursRecorded = MergeConflict.recorded(in: ours)
        let theirsRecorded = MergeConflict.recorded(in: theirs)
        // A conflict the base recorded that one side no longer records was settled there.
        let settledByOurs = settledInBase.subtracting(oursRecorded.map(\.property))
        let settledByTheirs = settledInBase.subtracting(theirsRecorded.map(\.property))
        var seen = Set(new.map(\.property))
        var carried: [MergeConflict] = []
        for conflict in oursRecorded + theirsRecorded where !seen.contains(conflict.property) {
            guard !settledByOurs.contains(conflict.property), !settledByTheirs.contains(conflict.property) else {
                continue
            }
            seen.insert(conflict.property)
            carried.append(conflict)
        }
        return carried
    }
}

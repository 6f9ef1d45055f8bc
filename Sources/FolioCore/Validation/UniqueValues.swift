import FolioJSON

/// The values one folder's documents hold for its uniqueness constraints, as a check meets
/// the documents in any order.
///
/// A first pass keeps a hash of each value only (a folder of 200,000 documents with a
/// unique `id` held 40 MB of values and paths); when two hashes meet, a second pass over
/// the folder takes the documents whose hash repeats (`candidates`) and keeps their values,
/// to tell a duplicate from two values that share a hash, and each value's first holder in
/// store order.
struct UniqueValues {
    /// A document that holds a value another one holds, and the first holder in store order.
    struct Duplicate {
        var constraint: [String]
        var key: [JSONValue]
        var path: DocumentPath
        var heldBy: DocumentPath
    }

    let constraints: [[String]]
    private var seen: [Set<Int>]
    private var repeated: [Set<Int>]
    private var first: [[[JSONValue]: DocumentPath]]
    private var others: [[[JSONValue]: [DocumentPath]]]

    init(_ constraints: [[String]]) {
        self.constraints = constraints
        seen = Array(repeating: [], count: constraints.count)
        repeated = seen
        first = Array(repeating: [:], count: constraints.count)
        others = Array(repeating: [:], count: constraints.count)
    }

    /// Takes in a document that is not soft-deleted (those take no part, as the models do
    /// not see them) in the first pass. A value that is missing or `null` takes no part
    /// either: it is unique to itself (see `StoreAudit.uniqueKey`).
    mutating func add(_ content: JSONObject, at path: DocumentPath) {
        for (index, constraint) in constraints.enumerated() {
            guard let hash = StoreAudit.uniqueKey(constraint, of: content)?.hashValue else { continue }
            if !seen[index].insert(hash).inserted { repeated[index].insert(hash) }
        }
    }

    /// Whether two documents may share a value: then a second pass hands every document
    /// that is not soft-deleted to `addCandidate`.
    var needsSecondPass: Bool { repeated.contains { !$0.isEmpty } }

    /// Takes in a document in the second pass, keeping its values whose hash repeats.
    mutating func addCandidate(_ content: JSONObject, at path: DocumentPath) {
        for (index, constraint) in constraints.enumerated() {
            guard let key = StoreAudit.uniqueKey(constraint, of: content), repeated[index].contains(key.hashValue)
            else { continue }
            guard let held = first[index][key] else {
                first[index][key] = path
                continue
            }
            // The first in store order holds it; the rest are the duplicates, as a check in that order finds them.
            first[index][key] = min(held, path)
            others[index][key, default: []].append(max(held, path))
        }
    }

    /// Forgets the second pass's values, whose documents are handed over again.
    mutating func startSecondPassOver() {
        first = Array(repeating: [:], count: constraints.count)
        others = Array(repeating: [:], count: constraints.count)
    }

    /// Every document holding a value an earlier one (in store order) holds.
    var duplicates: [Duplicate] {
        var found: [Duplicate] = []
        for (index, constraint) in constraints.enumerated() {
            for (key, paths) in others[index] {
                guard let heldBy = first[index][key] else { continue }
                for path in paths {
                    found.append(Duplicate(constraint: constraint, key: key, path: path, heldBy: heldBy))
                }
            }
        }
        return found
    }
}

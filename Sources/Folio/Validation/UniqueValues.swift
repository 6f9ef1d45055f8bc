import FolioJSON

/// The values one folder's documents hold for its uniqueness constraints, as a check meets
/// the documents in any order: each value's first holder in store order, and the others.
struct UniqueValues {
    /// A document that holds a value another one holds, and the first holder in store order.
    struct Duplicate {
        var constraint: [String]
        var key: [JSONValue]
        var path: DocumentPath
        var heldBy: DocumentPath
    }

    let constraints: [[String]]
    private var first: [[[JSONValue]: DocumentPath]]
    private var others: [[[JSONValue]: [DocumentPath]]]

    init(_ constraints: [[String]]) {
        self.constraints = constraints
        first = Array(repeating: [:], count: constraints.count)
        others = Array(repeating: [:], count: constraints.count)
    }

    /// Takes in a document that is not soft-deleted (those take no part, as the models do not see them).
    mutating func add(_ content: JSONObject, at path: DocumentPath) {
        for (index, constraint) in constraints.enumerated() {
            let key = constraint.map { content[$0] ?? .null }
            guard let held = first[index][key] else {
                first[index][key] = path
                continue
            }
            // The first in store order holds it; the rest are the duplicates, as a check in that order finds them.
            let later = max(held, path)
            first[index][key] = min(held, path)
            others[index][key, default: []].append(later)
        }
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

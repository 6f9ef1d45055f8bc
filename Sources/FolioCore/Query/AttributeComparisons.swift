import FolioJSON
import Foundation

/// A filter made only of comparisons between the document's own attributes and
/// constants, joined by `&&`: `state == "paused"`, `startTime >= a && startTime < b`.
///
/// Scans of unindexed filters and of day ranges test every document they examine; for
/// this shape (the most common one) the test reads each member and compares it straight
/// away, without the evaluator's variables, identities and expression walk. The answer
/// is the evaluator's: each member is read as `QueryEvaluation.storedValue` reads it and
/// compared by `QueryEvaluation.compare`, so the two cannot disagree.
struct AttributeComparisons {
    struct Comparison {
        let name: String
        let property: QuerySchema.Property?
        /// The operator with the attribute on the left (`5 < duration` is `duration > 5`).
        let op: QueryExpression.ComparisonOperator
        let constant: QueryValue
    }

    let comparisons: [Comparison]

    /// The comparisons of a filter, or `nil` when it has another shape or reads a
    /// relationship (whose test also drops references to documents that are gone).
    init?(_ filter: QueryExpression, entity: QuerySchema.Entity) {
        var comparisons: [Comparison] = []
        for term in filter.conjuncts {
            guard let (name, op, constant) = term.propertyComparison else { return nil }
            let property = entity.property(named: name)
            if case .relationship? = property { return nil }
            comparisons.append(Comparison(name: name, property: property, op: op, constant: constant))
        }
        self.comparisons = comparisons
    }

    /// Whether a document's content satisfies every comparison.
    func test(_ content: JSONObject) -> Bool {
        comparisons.allSatisfy { comparison in
            let value = QueryValue(stored: content[comparison.name] ?? .null, as: comparison.property)
            return QueryEvaluation.compare(value, comparison.op, comparison.constant)
        }
    }
}

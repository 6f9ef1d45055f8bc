import Foundation

// One conformance per expression of `#Predicate` the engine runs on documents; anything
// else makes the predicate run on models (see `PredicateTranslation`).

private func boolean(_ expression: QueryExpression) -> PredicateTranslation.Translated {
    PredicateTranslation.Translated(expression: expression, shape: .value(Bool.self))
}

extension PredicateExpressions.Variable: QueryTranslatable {
    func translate(into translation: inout PredicateTranslation) throws(PredicateTranslation.Unsupported)
        -> PredicateTranslation.Translated
    {
        try translation.variable(key)
    }
}

extension PredicateExpressions.KeyPath: QueryTranslatable {
    func translate(into translation: inout PredicateTranslation) throws(PredicateTranslation.Unsupported)
        -> PredicateTranslation.Translated
    {
        let base = try translation.translate(root)
        return try translation.member(keyPath, of: base, outputType: Output.self)
    }
}

extension PredicateExpressions.Value: QueryTranslatable {
    func translate(into translation: inout PredicateTranslation) throws(PredicateTranslation.Unsupported)
        -> PredicateTranslation.Translated
    {
        guard let constant = QueryValue.constant(value) else {
            throw PredicateTranslation.Unsupported(description: "a captured \(Output.self) has no stored form")
        }
        return PredicateTranslation.Translated(expression: .value(constant), shape: .value(Output.self))
    }
}

extension PredicateExpressions.NilLiteral: QueryTranslatable {
    func translate(into translation: inout PredicateTranslation) throws(PredicateTranslation.Unsupported)
        -> PredicateTranslation.Translated
    {
        PredicateTranslation.Translated(expression: .value(.null), shape: .value(Wrapped?.self))
    }
}

extension PredicateExpressions.Conjunction: QueryTranslatable {
    func translate(into translation: inout PredicateTranslation) throws(PredicateTranslation.Unsupported)
        -> PredicateTranslation.Translated
    {
        boolean(.and(try translation.translate(lhs).expression, try translation.translate(rhs).expression))
    }
}

extension PredicateExpressions.Disjunction: QueryTranslatable {
    func translate(into translation: inout PredicateTranslation) throws(PredicateTranslation.Unsupported)
        -> PredicateTranslation.Translated
    {
        boolean(.or(try translation.translate(lhs).expression, try translation.translate(rhs).expression))
    }
}

extension PredicateExpressions.Negation: QueryTranslatable {
    func translate(into translation: inout PredicateTranslation) throws(PredicateTranslation.Unsupported)
        -> PredicateTranslation.Translated
    {
        boolean(.not(try translation.translate(wrapped).expression))
    }
}

extension PredicateExpressions.Equal: QueryTranslatable {
    func translate(into translation: inout PredicateTranslation) throws(PredicateTranslation.Unsupported)
        -> PredicateTranslation.Translated
    {
        if let same = try caseInsensitiveEquality(lhs, rhs, into: &translation) { return boolean(same) }
        return boolean(
            .compare(try translation.translate(lhs).expression, .equal, try translation.translate(rhs).expression))
    }
}

extension PredicateExpressions.NotEqual: QueryTranslatable {
    func translate(into translation: inout PredicateTranslation) throws(PredicateTranslation.Unsupported)
        -> PredicateTranslation.Translated
    {
        if let same = try caseInsensitiveEquality(lhs, rhs, into: &translation) { return boolean(.not(same)) }
        return boolean(
            .compare(try translation.translate(lhs).expression, .notEqual, try translation.translate(rhs).expression))
    }
}

/// `a.caseInsensitiveCompare(b) == .orderedSame` (either way round) as the engine's
/// case-insensitive equality; `nil` for any other comparison.
private func caseInsensitiveEquality(_ lhs: Any, _ rhs: Any, into translation: inout PredicateTranslation)
    throws(PredicateTranslation.Unsupported) -> QueryExpression?
{
    for (comparison, result) in [(lhs, rhs), (rhs, lhs)] {
        // The concrete cast first: it fails at once for every other equality, where the cast
        // to the protocol looks its conformances up.
        guard (result as? PredicateExpressions.Value<ComparisonResult>)?.value == .orderedSame,
            let comparison = comparison as? any CaseInsensitiveComparison
        else { continue }
        return .text(
            .equalsIgnoringCase, try translation.translate(comparison.comparedText).expression,
            try translation.translate(comparison.otherText).expression)
    }
    return nil
}

/// A `caseInsensitiveCompare(_:)` expression, seen without its generic parameters.
protocol CaseInsensitiveComparison {
    var comparedText: Any { get }
    var otherText: Any { get }
}

extension PredicateExpressions.Comparison: QueryTranslatable {
    func translate(into translation: inout PredicateTranslation) throws(PredicateTranslation.Unsupported)
        -> PredicateTranslation.Translated
    {
        let operation: QueryExpression.ComparisonOperator =
            switch op {
            case .lessThan: .less
            case .lessThanOrEqual: .lessOrEqual
            case .greaterThan: .greater
            case .greaterThanOrEqual: .greaterOrEqual
            }
        return boolean(
            .compare(try translation.translate(lhs).expression, operation, try translation.translate(rhs).expression))
    }
}

/// `lhs op rhs`, shaped as its left operand (Swift's arithmetic keeps the operands' type).
private func arithmetic(
    _ lhs: Any, _ op: QueryExpression.ArithmeticOperator, _ rhs: Any, into translation: inout PredicateTranslation
) throws(PredicateTranslation.Unsupported) -> PredicateTranslation.Translated {
    let left = try translation.translate(lhs)
    return PredicateTranslation.Translated(
        expression: .arithmetic(left.expression, op, try translation.translate(rhs).expression), shape: left.shape)
}

extension PredicateExpressions.Arithmetic: QueryTranslatable {
    func translate(into translation: inout PredicateTranslation) throws(PredicateTranslation.Unsupported)
        -> PredicateTranslation.Translated
    {
        let operation: QueryExpression.ArithmeticOperator =
            switch op {
            case .add: .add
            case .subtract: .subtract
            case .multiply: .multiply
            }
        return try arithmetic(lhs, operation, rhs, into: &translation)
    }
}

extension PredicateExpressions.IntDivision: QueryTranslatable {
    func translate(into translation: inout PredicateTranslation) throws(PredicateTranslation.Unsupported)
        -> PredicateTranslation.Translated
    {
        try arithmetic(lhs, .divide, rhs, into: &translation)
    }
}

extension PredicateExpressions.IntRemainder: QueryTranslatable {
    func translate(into translation: inout PredicateTranslation) throws(PredicateTranslation.Unsupported)
        -> PredicateTranslation.Translated
    {
        try arithmetic(lhs, .remainder, rhs, into: &translation)
    }
}

extension PredicateExpressions.FloatDivision: QueryTranslatable {
    func translate(into translation: inout PredicateTranslation) throws(PredicateTranslation.Unsupported)
        -> PredicateTranslation.Translated
    {
        // Integer operands of a float division are whole doubles: divide as doubles.
        let left = try translation.translate(lhs)
        let right = try translation.translate(rhs)
        return PredicateTranslation.Translated(
            expression: .arithmetic(
                .arithmetic(left.expression, .multiply, .value(.double(1))), .divide, right.expression),
            shape: left.shape)
    }
}

extension PredicateExpressions.UnaryMinus: QueryTranslatable {
    func translate(into translation: inout PredicateTranslation) throws(PredicateTranslation.Unsupported)
        -> PredicateTranslation.Translated
    {
        let operand = try translation.translate(wrapped)
        return PredicateTranslation.Translated(expression: .negate(operand.expression), shape: operand.shape)
    }
}

extension PredicateExpressions.NilCoalesce: QueryTranslatable {
    func translate(into translation: inout PredicateTranslation) throws(PredicateTranslation.Unsupported)
        -> PredicateTranslation.Translated
    {
        let right = try translation.translate(rhs)
        return PredicateTranslation.Translated(
            expression: .coalesce(try translation.translate(lhs).expression, right.expression), shape: right.shape)
    }
}

extension PredicateExpressions.ForcedUnwrap: QueryTranslatable {
    func translate(into translation: inout PredicateTranslation) throws(PredicateTranslation.Unsupported)
        -> PredicateTranslation.Translated
    {
        // A force unwrap of nil traps in Swift; the engine cannot trap, so leave it to the models.
        throw PredicateTranslation.Unsupported(
            description: "a force unwrap (!) runs on models, where nil traps as in Swift")
    }
}

extension PredicateExpressions.OptionalFlatMap: QueryTranslatable {
    func translate(into translation: inout PredicateTranslation) throws(PredicateTranslation.Unsupported)
        -> PredicateTranslation.Translated
    {
        let optional = try translation.translate(wrapped)
        let (number, body) = try translation.bind(variable.key, elementOf: optional.shape, body: transform)
        // `$0.timer?.name` is a property chain: `nil` propagates through members anyway.
        if let chain = body.expression.substituting(variable: number, with: optional.expression) {
            return PredicateTranslation.Translated(expression: chain, shape: body.shape)
        }
        return PredicateTranslation.Translated(
            expression: .unwrap(optional.expression, variable: number, body.expression), shape: body.shape)
    }
}

extension PredicateExpressions.TypeCheck: QueryTranslatable {
    func translate(into translation: inout PredicateTranslation) throws(PredicateTranslation.Unsupported)
        -> PredicateTranslation.Translated
    {
        boolean(try translation.isModel(try translation.translate(input), of: Desired.self).test)
    }
}

extension PredicateExpressions.ConditionalCast: QueryTranslatable {
    func translate(into translation: inout PredicateTranslation) throws(PredicateTranslation.Unsupported)
        -> PredicateTranslation.Translated
    {
        // `$0 as? BusinessTrip`: the document when it is one, else nil.
        let model = try translation.translate(input)
        let (test, entity) = try translation.isModel(model, of: Desired.self)
        return PredicateTranslation.Translated(
            expression: .conditional(test, model.expression, .value(.null)), shape: .model(entity))
    }
}

extension PredicateExpressions.Conditional: QueryTranslatable {
    func translate(into translation: inout PredicateTranslation) throws(PredicateTranslation.Unsupported)
        -> PredicateTranslation.Translated
    {
        let then = try translation.translate(trueBranch)
        return PredicateTranslation.Translated(
            expression: .conditional(
                try translation.translate(test).expression, then.expression,
                try translation.translate(falseBranch).expression),
            shape: then.shape)
    }
}

extension PredicateExpressions.SequenceContains: QueryTranslatable {
    func translate(into translation: inout PredicateTranslation) throws(PredicateTranslation.Unsupported)
        -> PredicateTranslation.Translated
    {
        boolean(
            .contains(try translation.translate(sequence).expression, try translation.translate(element).expression))
    }
}

extension PredicateExpressions.CollectionContainsCollection: QueryTranslatable {
    func translate(into translation: inout PredicateTranslation) throws(PredicateTranslation.Unsupported)
        -> PredicateTranslation.Translated
    {
        guard Base.Output.self == String.self || Base.Output.self == Substring.self else {
            throw PredicateTranslation.Unsupported(
                description: "contains(_:) of a collection in a collection other than text")
        }
        return boolean(
            .contains(try translation.translate(base).expression, try translation.translate(other).expression))
    }
}

extension PredicateExpressions.SequenceStartsWith: QueryTranslatable {
    func translate(into translation: inout PredicateTranslation) throws(PredicateTranslation.Unsupported)
        -> PredicateTranslation.Translated
    {
        guard Base.Output.self == String.self || Base.Output.self == Substring.self else {
            throw PredicateTranslation.Unsupported(description: "starts(with:) on a sequence other than text")
        }
        return boolean(
            .text(.startsWith, try translation.translate(base).expression, try translation.translate(prefix).expression)
        )
    }
}

extension PredicateExpressions.SequenceContainsWhere: QueryTranslatable {
    func translate(into translation: inout PredicateTranslation) throws(PredicateTranslation.Unsupported)
        -> PredicateTranslation.Translated
    {
        let collection = try translation.translate(sequence)
        let (number, body) = try translation.bind(variable.key, elementOf: collection.shape, body: test)
        return boolean(.any(collection.expression, variable: number, body.expression))
    }
}

extension PredicateExpressions.SequenceAllSatisfy: QueryTranslatable {
    func translate(into translation: inout PredicateTranslation) throws(PredicateTranslation.Unsupported)
        -> PredicateTranslation.Translated
    {
        let collection = try translation.translate(sequence)
        let (number, body) = try translation.bind(variable.key, elementOf: collection.shape, body: test)
        return boolean(.all(collection.expression, variable: number, body.expression))
    }
}

extension PredicateExpressions.Filter: QueryTranslatable {
    func translate(into translation: inout PredicateTranslation) throws(PredicateTranslation.Unsupported)
        -> PredicateTranslation.Translated
    {
        let collection = try translation.translate(sequence)
        let (number, body) = try translation.bind(variable.key, elementOf: collection.shape, body: filter)
        return PredicateTranslation.Translated(
            expression: .filter(collection.expression, variable: number, body.expression), shape: collection.shape)
    }
}

extension PredicateExpressions.RangeExpressionContains: QueryTranslatable {
    func translate(into translation: inout PredicateTranslation) throws(PredicateTranslation.Unsupported)
        -> PredicateTranslation.Translated
    {
        let value = try translation.translate(element).expression
        if let range = range as? any QueryRange {
            let (lower, upper, closed) = try range.bounds(into: &translation)
            return boolean(
                .and(.compare(value, .greaterOrEqual, lower), .compare(value, closed ? .lessOrEqual : .less, upper)))
        }
        throw PredicateTranslation.Unsupported(
            description: "contains(_:) on a range that is not a literal a..<b or a...b")
    }
}

/// A range literal inside a predicate (`a..<b`, `a...b`).
private protocol QueryRange {
    func bounds(into translation: inout PredicateTranslation) throws(PredicateTranslation.Unsupported) -> (
        QueryExpression, QueryExpression, closed: Bool
    )
}

extension PredicateExpressions.Range: QueryRange {
    fileprivate func bounds(into translation: inout PredicateTranslation) throws(PredicateTranslation.Unsupported) -> (
        QueryExpression, QueryExpression, closed: Bool
    ) {
        (try translation.translate(lower).expression, try translation.translate(upper).expression, false)
    }
}

extension PredicateExpressions.ClosedRange: QueryRange {
    fileprivate func bounds(into translation: inout PredicateTranslation) throws(PredicateTranslation.Unsupported) -> (
        QueryExpression, QueryExpression, closed: Bool
    ) {
        (try translation.translate(lower).expression, try translation.translate(upper).expression, true)
    }
}

extension QueryExpression {
    /// The expression with a variable replaced, when the variable is only ever the base
    /// of a property chain (so `nil` propagates the same either way); else `nil`.
    func substituting(variable: Int, with replacement: QueryExpression) -> QueryExpression? {
        switch self {
        case .variable(variable): return replacement
        case .member(let base, let name):
            return base.substituting(variable: variable, with: replacement).map { .member($0, name) }
        default: return nil
        }
    }
}

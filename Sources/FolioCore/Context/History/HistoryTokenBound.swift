import Foundation

/// Finds `$0.token > token` (or `>=`, either way round, alone or in an `&&`) in a history
/// predicate, so a fetch reads only the history after that token instead of all of it.
/// The whole predicate is still evaluated on every transaction read.
enum HistoryTokenBound {
    /// The token the predicate's transactions must come after, or `nil` when it does not say.
    static func lowerBound(of predicate: Predicate<DefaultHistoryTransaction>) -> DefaultHistoryToken? {
        (predicate.expression as? any TokenBounding)?.lowerBound
    }
}

/// An expression that may bound the tokens of the transactions it selects.
protocol TokenBounding {
    var lowerBound: DefaultHistoryToken? { get }
}

typealias TransactionToken = PredicateExpressions.KeyPath<
    PredicateExpressions.Variable<DefaultHistoryTransaction>, DefaultHistoryToken
>

extension PredicateExpressions.Comparison: TokenBounding {
    var lowerBound: DefaultHistoryToken? {
        // `>=` includes the token's own transaction: one earlier bounds it as well, and the
        // predicate, evaluated on each, decides.
        if let token = lhs as? TransactionToken, token.keyPath == \DefaultHistoryTransaction.token,
            let value = rhs as? PredicateExpressions.Value<DefaultHistoryToken>
        {
            switch op {
            case .greaterThan: return value.value
            case .greaterThanOrEqual: return value.value.previous
            default: return nil
            }
        }
        if let token = rhs as? TransactionToken, token.keyPath == \DefaultHistoryTransaction.token,
            let value = lhs as? PredicateExpressions.Value<DefaultHistoryToken>
        {
            switch op {
            case .lessThan: return value.value
            case .lessThanOrEqual: return value.value.previous
            default: return nil
            }
        }
        return nil
    }
}

extension PredicateExpressions.Conjunction: TokenBounding {
    var lowerBound: DefaultHistoryToken? {
        (lhs as? any TokenBounding)?.lowerBound ?? (rhs as? any TokenBounding)?.lowerBound
    }
}

extension DefaultHistoryToken {
    /// The token just before this one in each of its stores.
    fileprivate var previous: DefaultHistoryToken {
        var token = self
        token.tokenValue = tokenValue?.mapValues { max(0, $0 - 1) }
        return token
    }
}

import Foundation

/// A query over one entity's documents: the expression tree Folio's engine evaluates on
/// stored JSON values.
///
/// Three front ends build it: `#Predicate` (translated by walking Foundation's
/// `PredicateExpressions`), the text language (`QueryExpression(parsing:)`, used by the
/// command line) and declarative migrations. The tree names properties as documents do,
/// so it needs no Swift types to run.
///
/// Variables are numbered: `0` is the document being tested; `any`, `all` and `filter`
/// bind a new variable to each element of a collection.
public indirect enum QueryExpression: Sendable, Hashable {
    /// A constant.
    case value(QueryValue)
    /// A bound variable: the document under test (`0`) or an element of a collection.
    case variable(Int)
    /// A property of a document (the base evaluates to a document); for a to-one
    /// relationship the related document, for a to-many one an array of documents.
    case member(QueryExpression, String)
    case not(QueryExpression)
    case and(QueryExpression, QueryExpression)
    case or(QueryExpression, QueryExpression)
    case compare(QueryExpression, ComparisonOperator, QueryExpression)
    case arithmetic(QueryExpression, ArithmeticOperator, QueryExpression)
    case negate(QueryExpression)
    /// The left side unless it is `nil`, else the right side (`??`).
    case coalesce(QueryExpression, QueryExpression)
    /// `test ? then : else`.
    case conditional(QueryExpression, QueryExpression, QueryExpression)
    /// A test on two strings.
    case text(TextOperator, QueryExpression, QueryExpression)
    /// Whether a collection (array or to-many relationship) contains an element, or a
    /// string contains another (exactly, as Swift's `contains` does).
    case contains(QueryExpression, QueryExpression)
    /// Whether any element satisfies the test, with the element bound to the variable.
    case any(QueryExpression, variable: Int, QueryExpression)
    /// Whether every element satisfies the test.
    case all(QueryExpression, variable: Int, QueryExpression)
    /// The elements that satisfy the test.
    case filter(QueryExpression, variable: Int, QueryExpression)
    /// The number of elements of a collection or characters of a string.
    case count(QueryExpression)
    /// The value of an optional whose transform is applied when it is not `nil`
    /// (`flatMap`, `if let`): the variable is bound to the unwrapped value.
    case unwrap(QueryExpression, variable: Int, QueryExpression)

    /// The document under test.
    public static var root: QueryExpression { .variable(0) }

    /// Whether a document's `"$entity"` is one of these: the test that a model is of a
    /// class or of one inheriting from it, whose documents share a folder.
    static func entity(of document: QueryExpression, isOneOf names: [String]) -> QueryExpression {
        .contains(.value(.array(names.map(QueryValue.string))), .member(document, ReservedKey.entity))
    }

    /// A property of the document under test: `.property("state")`, or a path through
    /// to-one relationships: `.property("timer", "name")`.
    public static func property(_ names: String...) -> QueryExpression {
        names.reduce(.root) { .member($0, $1) }
    }

    /// `==`, `!=`, `<`, `<=`, `>`, `>=`.
    public enum ComparisonOperator: String, Sendable, Hashable, CaseIterable {
        case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    }

    /// `+`, `-`, `*`, `/`, `%`.
    public enum ArithmeticOperator: String, Sendable, Hashable, CaseIterable {
        case add = "+", subtract = "-", multiply = "*", divide = "/", remainder = "%"
    }

    /// Tests on strings.
    public enum TextOperator: String, Sendable, Hashable, CaseIterable {
        /// The left string starts with the right one.
        case startsWith
        /// The left string ends with the right one.
        case endsWith
        /// Contains, ignoring case and diacritics, as `localizedStandardContains` does.
        case containsIgnoringCase
        /// Equal ignoring case, as `caseInsensitiveCompare(_:) == .orderedSame`.
        case equalsIgnoringCase
        /// The right string is a regular expression matching part of the left one (`~=`).
        case matches
    }
}

/// Writing a query in the text language, so plans, errors and logs show queries as
/// people type them: `state == "completed" && (endTime ?? startTime) >= @2026-11-01`.
extension QueryExpression: CustomStringConvertible {
    public var description: String { queryText }

    /// The expression in the text language (parsing it gives the same tree).
    public var queryText: String { text(scope: [0]) }

    /// Binding strength, as in Swift: higher binds tighter.
    private var precedence: Int {
        switch self {
        case .conditional: 1
        case .or: 2
        case .and: 3
        case .compare, .text(.matches, _, _): 4
        case .coalesce: 5
        case .arithmetic(_, .add, _), .arithmetic(_, .subtract, _): 6
        case .arithmetic: 7
        case .not, .negate: 8
        default: 9
        }
    }

    /// `scope` lists the bound variables, innermost last: bare names belong to it.
    private func text(scope: [Int]) -> String {
        func operand(_ expression: QueryExpression, _ minimum: Int) -> String {
            let text = expression.text(scope: scope)
            return expression.precedence < minimum ? "(" + text + ")" : text
        }
        func closure(_ variable: Int, _ body: QueryExpression) -> String { body.text(scope: scope + [variable]) }
        switch self {
        case .value(let value): return value.queryText
        case .variable(let number):
            // Inside a closure `$0` is the element; the document under test is `self`.
            if number == scope.last { return "$0" }
            return number == 0 ? "self" : "$\(number)"
        case .member(.variable(let number), let name) where number == scope.last: return name
        case .member(let base, let name): return operand(base, 9) + "." + name
        case .not(let operand): return "!" + operandText(operand, scope: scope)
        case .negate(.value(let value)):
            // `-5` reads back as the constant -5, not as negating 5.
            return "-(" + value.queryText + ")"
        case .negate(let operand): return "-" + operandText(operand, scope: scope)
        // && and || chains print flat however they are grouped: the parser joins a chain
        // the same way whatever its parentheses (`QueryExpression.joining`).
        case .and(let lhs, let rhs): return operand(lhs, 3) + " && " + operand(rhs, 3)
        case .or(let lhs, let rhs): return operand(lhs, 2) + " || " + operand(rhs, 2)
        case .compare(let lhs, let op, let rhs): return operand(lhs, 5) + " \(op.rawValue) " + operand(rhs, 5)
        case .arithmetic(let lhs, let op, let rhs):
            let level = precedence
            return operand(lhs, level) + " \(op.rawValue) " + operand(rhs, level + 1)
        case .coalesce(let lhs, let rhs): return operand(lhs, 6) + " ?? " + operand(rhs, 5)
        case .conditional(let test, let then, let otherwise):
            return operand(test, 2) + " ? " + operand(then, 2) + " : " + operand(otherwise, 1)
        case .text(.matches, let lhs, let rhs): return operand(lhs, 5) + " ~= " + operand(rhs, 5)
        case .text(let op, let lhs, let rhs):
            let method =
                switch op {
                case .startsWith: "hasPrefix"
                case .endsWith: "hasSuffix"
                case .containsIgnoringCase: "localizedStandardContains"
                case .equalsIgnoringCase: "caseInsensitiveEquals"
                case .matches: "matches"
                }
            return operand(lhs, 9) + ".\(method)(" + rhs.text(scope: scope) + ")"
        case .contains(let collection, let element): return operand(collection, 9) + ".contains(" + element.text(scope: scope) + ")"
        case .any(let collection, let variable, let test): return operand(collection, 9) + ".any(" + closure(variable, test) + ")"
        case .all(let collection, let variable, let test): return operand(collection, 9) + ".all(" + closure(variable, test) + ")"
        case .filter(let collection, let variable, let test): return operand(collection, 9) + ".filter(" + closure(variable, test) + ")"
        case .count(let collection): return operand(collection, 9) + ".count"
        case .unwrap(let optional, let variable, let transform): return operand(optional, 9) + ".map(" + closure(variable, transform) + ")"
        }
    }

    private func operandText(_ operand: QueryExpression, scope: [Int]) -> String {
        let text = operand.text(scope: scope)
        return operand.precedence < 8 ? "(" + text + ")" : text
    }
}

/// Writing a query in the text language, so plans, errors and logs show queries as
/// people type them: `state == "completed" && (endTime ?? startTime) >= @2026-11-01`.
extension QueryExpression: CustomStringConvertible {
    /// The expression in the text language, as `queryText` writes it.
    public var description: String { queryText }

    /// The expression in the text language (parsing it gives the same tree).
    public var queryText: String { text(scope: [0]) }

    /// Binding strength, as in Swift: higher binds tighter.
    private var precedence: Int {
        switch self {
        // A negative number is written with its minus in front, which binds as prefix `-` does.
        case .value(.integer(let value)) where value < 0: 8
        case .value(.double(let value)) where value.sign == .minus: 8
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
            expression.operandText(minimum, scope: scope)
        }
        func receiver(_ expression: QueryExpression) -> String { expression.receiverText(scope: scope) }
        func closure(_ variable: Int, _ body: QueryExpression) -> String { body.text(scope: scope + [variable]) }
        switch self {
        case .value(let value): return Self.literal(value)
        case .variable(let number):
            // Inside a closure `$0` is the element; the document under test is `self`.
            if number == scope.last { return "$0" }
            return number == 0 ? "self" : "$\(number)"
        // A bare `self`, `true`, `false`, `nil` or `null` would read back as a constant: `$0.nil`.
        case .member(.variable(let number), let name) where number == scope.last && !Self.keywords.contains(name):
            return name
        case .member(let base, let name): return receiver(base) + name
        case .not(let operand): return "!" + operand.operandText(8, scope: scope)
        case .negate(.value(let value)) where value.doubleValue.map({ $0.sign == .plus }) == true:
            // `-5` reads back as the constant -5, not as negating 5 (`-(5)`); `--5` negates -5.
            return "-(" + value.queryText + ")"
        case .negate(let operand): return "-" + operand.operandText(8, scope: scope)
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
            // The middle reads as a whole query, as in Swift: `a ? b ? 1 : 2 : 3`.
            return operand(test, 2) + " ? " + then.text(scope: scope) + " : " + operand(otherwise, 1)
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
            return receiver(lhs) + "\(method)(" + rhs.text(scope: scope) + ")"
        case .contains(let collection, let element):
            return receiver(collection) + "contains(" + element.text(scope: scope) + ")"
        case .any(let collection, let variable, let test):
            return receiver(collection) + "any(" + closure(variable, test) + ")"
        case .all(let collection, let variable, let test):
            return receiver(collection) + "all(" + closure(variable, test) + ")"
        case .filter(let collection, let variable, let test):
            return receiver(collection) + "filter(" + closure(variable, test) + ")"
        case .count(let collection): return receiver(collection) + "count"
        case .unwrap(let optional, let variable, let transform):
            return receiver(optional) + "map(" + closure(variable, transform) + ")"
        }
    }

    /// The expression as an operand that binds at least as tightly as `minimum`: in
    /// parentheses if it binds less tightly, except that `x.count == 0` and `x ~= y`, which
    /// the parser also reads from `x.isEmpty` and `x.matches(y)`, are written so there, as a
    /// chain of them written with parentheses would nest deeper than the parser allows.
    private func operandText(_ minimum: Int, scope: [Int]) -> String {
        guard precedence < minimum else { return text(scope: scope) }
        switch self {
        case .compare(.count(let collection), .equal, .value(.integer(0))):
            return collection.receiverText(scope: scope) + "isEmpty"
        case .text(.matches, let lhs, let pattern):
            return lhs.receiverText(scope: scope) + "matches(" + pattern.text(scope: scope) + ")"
        default: return "(" + text(scope: scope) + ")"
        }
    }

    /// The expression with the `.` of a member or method after it. A date constant is
    /// followed by a space: `.` and letters would continue its text (`@2026-11-01T09:30:00Z .count`).
    private func receiverText(scope: [Int]) -> String {
        if case .value(.date) = self { return text(scope: scope) + " ." }
        return operandText(9, scope: scope) + "."
    }

    /// The names the parser reads as constants or the document, never as properties.
    private static let keywords: Set = ["self", "true", "false", "nil", "null"]

    /// A constant as the text language writes it (`QueryValue.queryText`), with text that
    /// reads back as the same characters: see `stringLiteral(_:)`.
    private static func literal(_ value: QueryValue) -> String {
        switch value {
        case .string(let text): stringLiteral(text)
        case .array(let values): "[" + values.map(literal).joined(separator: ", ") + "]"
        default: value.queryText
        }
    }

    /// A string literal whose characters the lexer reads back as `text`. The lexer reads
    /// `Character`s, so besides `"` and `\`, a scalar that would join the character before
    /// it (a combining mark after the opening quote or an escape) or after it (a prepended
    /// mark before the closing quote or an escape) is written as `\u{...}`.
    private static func stringLiteral(_ text: String) -> String {
        var literal = "\""
        var afterSyntax = true  // the last scalar written is the quote or ends an escape
        for scalar in text.unicodeScalars {
            if scalar == "\"" || scalar == "\\" {
                literal += "\\" + String(scalar)
                afterSyntax = true
            } else if (afterSyntax && ("a" + String(scalar)).count == 1) || (String(scalar) + "a").count == 1 {
                literal += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                afterSyntax = true
            } else {
                literal.unicodeScalars.append(scalar)
                afterSyntax = false
            }
        }
        return literal + "\""
    }
}

import FolioJSON
import Foundation

/// Reads the text query language into a `QueryExpression`, checking property names
/// against an entity when one is given.
///
/// The grammar, lowest precedence first, as Swift's: `a ? b : c`, `||`, `&&`,
/// comparisons (`==` `!=` `<` `<=` `>` `>=` `~=`), `??`, `+ -`, `* / %`, prefix `! -`,
/// then postfix `.property`, `.method(...)`. docs/queries.md has the whole language.
///
/// Input is untrusted (typed on a command line, read from a plan file), so depth is
/// bounded: nesting (parentheses, `!`, `-`, `?:`, `??`, closures, arguments) past
/// `maximumNesting` is an error at the token that goes too deep, and the finished tree
/// may be at most `QueryExpression.maximumDepth` deep. Chains of `&&` and of `||` are
/// read in a loop and joined as balanced trees, so any number of terms stays shallow.
struct QueryParser {
    /// How deeply parentheses and prefix operators may nest; each level costs the parser a
    /// few stack frames, and no query a person writes comes near it.
    static let maximumNesting = 100

    /// What an expression stands for, as far as names can be checked.
    private enum Shape {
        case document(String)
        case documents(String)
        case value
    }

    private let text: String
    private let tokens: [QueryLexer.Token]
    private var position = 0
    private let schema: QuerySchema?
    private let timeZone: TimeZone
    /// Bound variables, innermost last, with what each stands for.
    private var scopes: [(variable: Int, shape: Shape)]
    private var nextVariable = 1
    /// How many nested levels the parser is in (see `maximumNesting`).
    private var nesting = 0

    /// The words SQL and Python spell two logical operators with, and the query language's
    /// symbols for them (`not`, a prefix, is caught where a property is looked up).
    static let logicalSymbols = ["and": "&&", "or": "||"]

    /// Parses `text`; with a schema, names are checked against `entity`'s properties.
    static func parse(_ text: String, entity: String?, schema: QuerySchema?, timeZone: TimeZone) throws(FolioError)
        -> QueryExpression
    {
        let tokens: [QueryLexer.Token]
        do { tokens = try QueryLexer.tokens(of: text) } catch {
            throw .invalidQuery(query: text, column: error.column, message: error.message)
        }
        let root: Shape = entity.map { .document($0) } ?? .value
        var parser = QueryParser(text: text, tokens: tokens, schema: schema, timeZone: timeZone, scopes: [(0, root)])
        let expression = try parser.expression()
        guard case .end = parser.current.kind else {
            // SQL's and Python's words for the logical operators are a first query's commonest slip.
            if case .identifier(let word) = parser.current.kind, let symbol = Self.logicalSymbols[word.lowercased()] {
                throw parser.failure("\(word) is not an operator of the query language; write \(symbol), as in Swift")
            }
            throw parser.failure("expected the end of the query, or an operator such as && or ==")
        }
        let depth = expression.depth
        guard depth <= QueryExpression.maximumDepth else {
            throw .invalidQuery(
                query: text, column: 1,
                message:
                    "the query is \(depth) levels deep, more than the \(QueryExpression.maximumDepth) Folio evaluates; every term of a chain of + - * / % adds a level (&& and || do not): shorten the chain"
            )
        }
        return expression
    }

    private init(
        text: String, tokens: [QueryLexer.Token], schema: QuerySchema?, timeZone: TimeZone, scopes: [(Int, Shape)]
    ) {
        self.text = text
        self.tokens = tokens
        self.schema = schema
        self.timeZone = timeZone
        self.scopes = scopes.map { (variable: $0.0, shape: $0.1) }
    }

    private var current: QueryLexer.Token { tokens[position] }

    private func failure(_ message: String, at column: Int? = nil) -> FolioError {
        .invalidQuery(query: text, column: column ?? current.column, message: message)
    }

    private mutating func take(_ symbol: String) -> Bool {
        guard current.kind == .symbol(symbol) else { return false }
        position += 1
        return true
    }

    private mutating func expect(_ symbol: String, _ why: String) throws(FolioError) {
        guard take(symbol) else { throw failure("expected \(symbol) \(why)") }
    }

    /// Reads one nested level with `body`, refusing to go deeper than `maximumNesting`.
    private mutating func nested<T>(_ body: (inout QueryParser) throws(FolioError) -> T) throws(FolioError) -> T {
        guard nesting < Self.maximumNesting else {
            throw failure(
                "the query nests more than \(Self.maximumNesting) levels deep here (parentheses, !, -, ?:, ?? and closures); write it flatter"
            )
        }
        nesting += 1
        defer { nesting -= 1 }
        return try body(&self)
    }

    // MARK: Precedence levels

    private mutating func expression() throws(FolioError) -> QueryExpression {
        try nested { parser throws(FolioError) in
            let test = try parser.or()
            guard parser.take("?") else { return test }
            let then = try parser.expression()
            try parser.expect(":", "between the two results of ? :")
            return .conditional(test, then, try parser.expression())
        }
    }

    private mutating func or() throws(FolioError) -> QueryExpression {
        var terms = [try and()]
        while take("||") { terms.append(try and()) }
        return .joining(terms, by: .or)
    }

    private mutating func and() throws(FolioError) -> QueryExpression {
        var terms = [try comparison()]
        while take("&&") { terms.append(try comparison()) }
        return .joining(terms, by: .and)
    }

    private mutating func comparison() throws(FolioError) -> QueryExpression {
        let lhsColumn = current.column
        let lhs = try coalesce()
        guard case .symbol(let symbol) = current.kind else { return lhs }
        if symbol == "~=" {
            position += 1
            let column = current.column
            let pattern = try coalesce()
            try checkRegularExpression(pattern, column: column)
            return .text(.matches, lhs, pattern)
        }
        guard let op = QueryExpression.ComparisonOperator(rawValue: symbol) else { return lhs }
        position += 1
        let rhsColumn = current.column
        let rhs = try coalesce()
        if case .symbol(let next) = current.kind,
            QueryExpression.ComparisonOperator(rawValue: next) != nil || next == "~="
        {
            throw failure("comparisons do not chain; join them with && instead")
        }
        try checkComparable(lhs, rhs, constantAt: rhsColumn)
        try checkComparable(rhs, lhs, constantAt: lhsColumn)
        return .compare(lhs, op, rhs)
    }

    /// Throws when `constant` is a value a property of `property`'s type can never equal or
    /// be ordered against: such a comparison is false for every document (a date against
    /// text answers 0 without a word), so it is a mistake to point out, with the fix.
    /// `docs/queries.md` lists the comparisons that are allowed.
    private func checkComparable(_ property: QueryExpression, _ constant: QueryExpression, constantAt column: Int)
        throws(FolioError)
    {
        guard case .member(.variable(let variable), let name) = property, case .value(let value) = constant,
            !value.isNull,
            let scope = scopes.last(where: { $0.variable == variable }), case .document(let entityName) = scope.shape,
            let entity = schema?.entities[entityName],
            case .attribute(_, let typeName, _)? = entity.property(named: name)
        else { return }
        if case .enumeration(let cases) = entity.storedType(of: name, typeName: typeName),
            !cases.map({ QueryValue($0, type: .other) }).contains(value)
        {
            let listed = cases.map(\.description).joined(separator: ", ")
            throw failure(
                "\(value.queryText) is not a case of \(typeName), the type of \(name); its cases are \(listed) (`folio check` finds documents that hold another value)",
                at: column)
        }
        guard let expected = StoredType(typeName).comparableKind else { return }
        let found: StoredType.ComparableKind? =
            switch value {
            case .string: .text
            case .integer, .double: .number
            case .bool: .bool
            case .date: .date
            default: nil
            }
        guard let found, found != expected, !(expected == .uuid && found == .text) else { return }
        var hint = ""
        if expected == .date, case .string(let text) = value {
            hint = "; write the date as @\(text.isEmpty ? "2026-11-01" : text)"
        }
        if expected == .number, case .string(let text) = value, Double(text) != nil {
            hint = "; write the number without quotes: \(text)"
        }
        if expected == .text, found == .number || found == .bool {
            hint = "; put text in quotes: \"\(value.queryText)\""
        }
        throw failure(
            "\(name) holds \(expected.description) (\(typeName)), which \(found.description) such as \(value.queryText) never equals or orders against\(hint)",
            at: column)
    }

    private mutating func coalesce() throws(FolioError) -> QueryExpression {
        let lhs = try additive()
        guard take("??") else { return lhs }
        return .coalesce(lhs, try nested { parser throws(FolioError) in try parser.coalesce() })
    }

    private mutating func additive() throws(FolioError) -> QueryExpression {
        var result = try multiplicative()
        while case .symbol(let symbol) = current.kind, symbol == "+" || symbol == "-" {
            position += 1
            result = .arithmetic(result, symbol == "+" ? .add : .subtract, try multiplicative())
        }
        return result
    }

    private mutating func multiplicative() throws(FolioError) -> QueryExpression {
        var result = try prefix()
        while case .symbol(let symbol) = current.kind, let op = QueryExpression.ArithmeticOperator(rawValue: symbol),
            [.multiply, .divide, .remainder].contains(op)
        {
            position += 1
            result = .arithmetic(result, op, try prefix())
        }
        return result
    }

    private mutating func prefix() throws(FolioError) -> QueryExpression {
        if take("!") { return .not(try nested { parser throws(FolioError) in try parser.prefix() }) }
        if take("-") {
            // Only a number written right after the minus is a negative constant; `-(5)` negates.
            let isLiteral: Bool =
                switch current.kind {
                case .integer, .double: true
                default: false
                }
            let operand = try nested { parser throws(FolioError) in try parser.prefix() }
            guard isLiteral else { return .negate(operand) }
            switch operand {
            case .value(.integer(let value)) where value != .min: return .value(.integer(-value))
            case .value(.double(let value)): return .value(.double(-value))
            default: return .negate(operand)
            }
        }
        return try postfix()
    }

    // MARK: Postfix and primary

    private mutating func postfix() throws(FolioError) -> QueryExpression {
        var (result, shape) = try primary()
        while take(".") {
            guard case .identifier(let name) = current.kind else {
                throw failure("expected a property or method name after .")
            }
            let column = current.column
            position += 1
            if take("(") {
                (result, shape) = try method(name, on: result, shape: shape, column: column)
                continue
            }
            switch name {
            case "count": (result, shape) = (.count(result), .value)
            case "isEmpty": (result, shape) = (.compare(.count(result), .equal, .value(.integer(0))), .value)
            default: (result, shape) = (.member(result, name), try member(name, of: shape, column: column))
            }
        }
        return result
    }

    private mutating func primary() throws(FolioError) -> (QueryExpression, Shape) {
        let token = current
        position += 1
        switch token.kind {
        case .integer(let value): return (.value(.integer(value)), .value)
        case .double(let value): return (.value(.double(value)), .value)
        case .string(let value): return (.value(.string(value)), .value)
        case .date(let text): return (.value(.date(try date(text, column: token.column))), .value)
        case .variable(let number):
            let variable =
                number == 0 ? scopes[scopes.count - 1] : scopes.first { $0.variable == number } ?? (number, .value)
            return (.variable(variable.variable), variable.shape)
        case .identifier("self"): return (.variable(scopes[0].variable), scopes[0].shape)
        case .identifier("true"): return (.value(.bool(true)), .value)
        case .identifier("false"): return (.value(.bool(false)), .value)
        case .identifier("nil"), .identifier("null"): return (.value(.null), .value)
        case .identifier(let name):
            let scope = scopes[scopes.count - 1]
            return (.member(.variable(scope.variable), name), try member(name, of: scope.shape, column: token.column))
        case .symbol("("):
            let inner = try expression()
            try expect(")", "to close the ( at column \(token.column)")
            return (inner, .value)
        case .symbol("["):
            var elements: [QueryValue] = []
            if !take("]") {
                repeat {
                    let column = current.column
                    guard case .value(let element) = try nested({ parser throws(FolioError) in try parser.prefix() })
                    else {
                        throw failure("array elements must be constants", at: column)
                    }
                    elements.append(element)
                } while take(",")
                try expect("]", "to close the [ at column \(token.column)")
            }
            return (.value(.array(elements)), .value)
        case .end: throw failure("the query ends where a value was expected", at: token.column)
        case .symbol(let symbol):
            throw failure("expected a value, a property or ( but found \(symbol)", at: token.column)
        }
    }

    /// `base.name(arguments)`: string tests, collection tests with a closure argument.
    private mutating func method(_ name: String, on base: QueryExpression, shape: Shape, column: Int) throws(FolioError)
        -> (QueryExpression, Shape)
    {
        let textTests: [String: QueryExpression.TextOperator] = [
            "hasPrefix": .startsWith, "hasSuffix": .endsWith, "localizedStandardContains": .containsIgnoringCase,
            "caseInsensitiveEquals": .equalsIgnoringCase, "matches": .matches,
        ]
        let closures = ["any", "all", "allSatisfy", "filter", "map"]
        if name == "contains", case .identifier("where") = current.kind, tokens[position + 1].kind == .symbol(":") {
            position += 2
            return (try closure("any", on: base, shape: shape), .value)
        }
        if name == "starts", case .identifier("with") = current.kind, tokens[position + 1].kind == .symbol(":") {
            position += 2
            let argument = try expression()
            try expect(")", "to close starts(with:)")
            return (.text(.startsWith, base, argument), .value)
        }
        if closures.contains(name) {
            return (try closure(name, on: base, shape: shape), name == "filter" ? shape : .value)
        }
        let argumentColumn = current.column
        let argument = try expression()
        try expect(")", "to close \(name)(")
        if name == "contains" { return (.contains(base, argument), .value) }
        if let op = textTests[name] {
            // `matches(...)` is the same tree as `~=`, so it checks its pattern as `~=` does.
            if op == .matches { try checkRegularExpression(argument, column: argumentColumn) }
            return (.text(op, base, argument), .value)
        }
        let known = (["contains", "contains(where:)", "starts(with:)"] + closures + textTests.keys.sorted()).joined(
            separator: ", ")
        throw failure("\(name) is not a method of the query language; it has \(known)", at: column)
    }

    /// `any(...)`, `all(...)`, `filter(...)`, `map(...)`: the argument is read with a new
    /// variable bound to each element, whose properties bare names then refer to.
    private mutating func closure(_ name: String, on base: QueryExpression, shape: Shape) throws(FolioError)
        -> QueryExpression
    {
        let variable = nextVariable
        nextVariable += 1
        let element: Shape =
            switch shape {
            case .documents(let entity), .document(let entity): .document(entity)
            case .value: .value
            }
        scopes.append((variable, element))
        let body = try expression()
        scopes.removeLast()
        try expect(")", "to close \(name)(")
        switch name {
        case "any": return .any(base, variable: variable, body)
        case "all", "allSatisfy": return .all(base, variable: variable, body)
        case "filter": return .filter(base, variable: variable, body)
        default: return .unwrap(base, variable: variable, body)
        }
    }

    /// What `name` is on a document of an entity, checked against the schema.
    private func member(_ name: String, of shape: Shape, column: Int) throws(FolioError) -> Shape {
        guard case .document(let entityName) = shape, let schema else { return .value }
        guard let entity = schema.entities[entityName] else { return .value }
        switch entity.property(named: name) {
        case .relationship(let destination, let isToMany, _)?:
            return isToMany ? .documents(destination) : .document(destination)
        case .attribute?: return .value
        case nil:
            if name == "id" || name.hasPrefix("$") { return .value }
            let names = entity.properties.map(\.name)
            let hint =
                name.lowercased() == "not"
                ? "to negate, write ! in front, as in Swift"
                : Spelling.nearest(to: name, among: names).map { "did you mean \($0)?" }
                    ?? "its properties are \(names.joined(separator: ", "))"
            throw failure("\(entityName) has no property \(name); \(hint)", at: column)
        }
    }

    /// A constant pattern of `~=` or `matches(...)` must be a regular expression.
    private func checkRegularExpression(_ pattern: QueryExpression, column: Int) throws(FolioError) {
        guard case .value(.string(let text)) = pattern else { return }
        do { _ = try Regex(text) } catch {
            throw failure("\"\(text)\" is not a regular expression: \(error)", at: column)
        }
    }

    /// A date as `DateInput` reads it (`@2026-11-01` is midnight in the store's time zone,
    /// `@2026-11-01T09:30:00.5Z` an instant, `@today`, `@now`), within the years a query can
    /// write back (`QueryValue.queryText` writes ISO 8601 text in UTC).
    private func date(_ text: String, column: Int) throws(FolioError) -> Date {
        // `@NaN` and `@Infinity` read as stored dates do, but no one means them in a query.
        guard let date = DateInput.date(text, timeZone: timeZone), date.timeIntervalSinceReferenceDate.isFinite else {
            throw failure(
                "@\(text) is not a date; write @2026-11-01, @2026-11-01T09:30 (the store's time zone), @2026-11-01T09:30:00Z, @today or @now",
                at: column)
        }
        guard case .string = ISO8601Timestamp.jsonValue(for: date) else {
            throw failure(
                "@\(text) is outside the years 0000 to 9999 (in UTC), the dates a query can write", at: column)
        }
        return date
    }
}

extension QueryExpression {
    /// Reads a query in the text language, without checking names:
    /// `QueryExpression(parsing: "state == \"paused\" && duration > 60")`. Dates written
    /// as days (`@2026-11-01`) start at midnight in `timeZone`.
    ///
    /// - Throws: `.invalidQuery`, with the column, when the text is not a query or is too deep.
    public init(parsing text: String, timeZone: TimeZone = TimeZone(identifier: "UTC")!) throws(FolioError) {
        self = try QueryParser.parse(text, entity: nil, schema: nil, timeZone: timeZone)
    }
}

extension DocumentStore {
    /// Reads a query in the text language for an entity of this store, checking every
    /// property name against the manifest's schema (an unknown one is an error that
    /// suggests the nearest), with days in the store's time zone.
    ///
    /// - Throws: `.notFound` for an entity the schema lacks; `.invalidQuery`, with the column, for
    ///   text that is not a query or a property the entity lacks.
    public func parseQuery(_ text: String, entity: String) throws(FolioError) -> QueryExpression {
        let (schema, manifest) = memory.schemaAndManifest
        let timeZone = manifest.timeZone
        _ = try schema.entity(entity, in: root)
        return try QueryParser.parse(text, entity: entity, schema: schema, timeZone: timeZone)
    }
}

import FolioJSON
import Foundation

/// Evaluates a `QueryExpression` on stored documents.
///
/// The semantics follow Swift's, so a translated `#Predicate` answers as the predicate
/// itself would on the models: `nil` equals only `nil`, ordering comparisons with `nil`
/// or with values of another kind are false, integer division truncates, a property of
/// a missing related document is `nil` (optional chaining).
struct QueryEvaluation {
    var documents: QueryDocuments
    /// Bound variables by number; `0` is the document under test.
    private var variables: [QueryValue] = []
    /// The document under test and its content, read once. Two fields rather than an
    /// optional pair: reading a member of the root then copies neither.
    private var rootIdentity: PersistentIdentifier?
    private var rootContent = JSONObject()
    /// The property last looked up, by entity and name: a filter asks for the same few
    /// for every document, and finding one scanned the entity's properties each time.
    private var lastProperty: (entity: String, name: String, property: QuerySchema.Property?)?
    /// Compiled regular expressions by pattern (`~=`).
    private var patterns: [String: Regex<AnyRegexOutput>?] = [:]
    private var lastEntity: QuerySchema.Entity?

    init(documents: QueryDocuments) { self.documents = documents }

    /// Whether a document satisfies a predicate.
    mutating func test(_ predicate: QueryExpression, on identity: PersistentIdentifier, content: JSONObject) -> Bool {
        value(of: predicate, on: identity, content: content).boolValue ?? false
    }

    /// An expression's value for a document.
    mutating func value(of expression: QueryExpression, on identity: PersistentIdentifier, content: JSONObject)
        -> QueryValue
    {
        rootIdentity = identity
        rootContent = content
        // Reused, not reallocated: this runs once per document examined.
        variables.removeAll(keepingCapacity: true)
        variables.append(.document(entity: identity.entityName, id: identity.id))
        return evaluate(expression)
    }

    private mutating func evaluate(_ expression: QueryExpression) -> QueryValue {
        switch expression {
        case .value(let value): return value
        case .variable(let number): return number < variables.count ? variables[number] : .null
        case .member(let base, let name): return member(name, of: evaluate(base))
        case .not(let operand): return evaluate(operand).boolValue.map { .bool(!$0) } ?? .null
        case .and(let lhs, let rhs): return .bool(evaluate(lhs).boolValue == true && evaluate(rhs).boolValue == true)
        case .or(let lhs, let rhs): return .bool(evaluate(lhs).boolValue == true || evaluate(rhs).boolValue == true)
        case .compare(let lhs, let op, let rhs): return .bool(Self.compare(evaluate(lhs), op, evaluate(rhs)))
        case .arithmetic(let lhs, let op, let rhs): return Self.arithmetic(evaluate(lhs), op, evaluate(rhs))
        case .negate(let operand):
            switch evaluate(operand) {
            case .integer(let value): return value == .min ? .double(-Double(value)) : .integer(-value)
            case .double(let value): return .double(-value)
            default: return .null
            }
        case .coalesce(let lhs, let rhs):
            let value = evaluate(lhs)
            return value.isNull ? evaluate(rhs) : value
        case .conditional(let test, let then, let otherwise):
            return evaluate(test).boolValue == true ? evaluate(then) : evaluate(otherwise)
        case .text(let op, let lhs, let rhs):
            guard case .string(let text) = evaluate(lhs), case .string(let other) = evaluate(rhs) else {
                return .bool(false)
            }
            return .bool(test(op, text, other))
        case .contains(let collection, let element):
            let element = evaluate(element)
            switch evaluate(collection) {
            case .array(let elements): return .bool(elements.contains(element))
            case .string(let text):
                guard case .string(let other) = element else { return .bool(false) }
                return .bool(text.contains(other))
            default: return .bool(false)
            }
        case .any(let collection, let variable, let test):
            return .bool(elements(of: collection).contains { bind(variable, to: $0, in: test).boolValue == true })
        case .all(let collection, let variable, let test):
            return .bool(elements(of: collection).allSatisfy { bind(variable, to: $0, in: test).boolValue == true })
        case .filter(let collection, let variable, let test):
            return .array(elements(of: collection).filter { bind(variable, to: $0, in: test).boolValue == true })
        case .count(let operand):
            switch evaluate(operand) {
            case .array(let elements): return .integer(Int64(elements.count))
            case .string(let text): return .integer(Int64(text.count))
            default: return .null
            }
        case .unwrap(let optional, let variable, let transform):
            let value = evaluate(optional)
            return value.isNull ? .null : bind(variable, to: value, in: transform)
        }
    }

    private mutating func elements(of collection: QueryExpression) -> [QueryValue] {
        if case .array(let elements) = evaluate(collection) { elements } else { [] }
    }

    private mutating func bind(_ variable: Int, to value: QueryValue, in expression: QueryExpression) -> QueryValue {
        while variables.count <= variable { variables.append(.null) }
        let previous = variables[variable]
        variables[variable] = value
        defer { variables[variable] = previous }
        return evaluate(expression)
    }

    /// A property of a document (or of a nested object); `nil` of `nil`.
    private mutating func member(_ name: String, of base: QueryValue) -> QueryValue {
        switch base {
        case .document(let entity, let id):
            let identity = PersistentIdentifier(entityName: entity, id: id)
            let json: JSONValue
            if rootIdentity == identity {
                json = rootContent[name] ?? .null
            } else if let related = documents.content(of: identity) {
                json = related[name] ?? .null
            } else {
                return .null
            }
            let property = property(name, of: entity)
            if case .relationship(_, true, let inverse?) = property {
                return .array(
                    documents.referrers(entity: relationshipDestination(property), property: inverse, to: id).map {
                        .document(entity: relationshipDestination(property), id: $0)
                    })
            }
            let value = QueryValue(stored: json, as: property)
            guard case .relationship = property else { return value }
            // A related document that is gone (deleted, or soft-deleted) is no related document.
            switch value {
            case .document(let entity, let id):
                return documents.content(of: PersistentIdentifier(entityName: entity, id: id)) == nil ? .null : value
            case .array(let related):
                return .array(
                    related.filter {
                        guard case .document(let entity, let id) = $0 else { return false }
                        return documents.content(of: PersistentIdentifier(entityName: entity, id: id)) != nil
                    })
            default: return value
            }
        case .json(.object(let object)): return QueryValue(object[name] ?? .null, type: .other)
        default: return .null
        }
    }

    /// The schema of an entity; the last one asked is kept, as one query asks for the
    /// same one for every document (hashing its name each time costs more than the test).
    private mutating func schemaEntity(_ name: String) -> QuerySchema.Entity? {
        if let last = lastEntity, last.name == name { return last }
        lastEntity = documents.schema.entities[name]
        return lastEntity
    }

    private mutating func property(_ name: String, of entity: String) -> QuerySchema.Property? {
        if let last = lastProperty, last.name == name, last.entity == entity { return last.property }
        let property = schemaEntity(entity)?.property(named: name)
        lastProperty = (entity, name, property)
        return property
    }

    private func relationshipDestination(_ property: QuerySchema.Property?) -> String {
        if case .relationship(let destination, _, _) = property { destination } else { "" }
    }

    static func compare(_ lhs: QueryValue, _ op: QueryExpression.ComparisonOperator, _ rhs: QueryValue) -> Bool {
        switch op {
        case .equal: return lhs == rhs
        case .notEqual: return lhs != rhs
        case .less: return lhs.compared(to: rhs) == .orderedAscending
        case .lessOrEqual: return lhs.compared(to: rhs).map { $0 != .orderedDescending } ?? false
        case .greater: return lhs.compared(to: rhs) == .orderedDescending
        case .greaterOrEqual: return lhs.compared(to: rhs).map { $0 != .orderedAscending } ?? false
        }
    }

    /// Integers stay integers (as in Swift; an overflow becomes a double rather than a
    /// trap), anything with a double is a double, division by zero is `nil`; `+` joins
    /// text, and adds seconds to a date.
    static func arithmetic(_ lhs: QueryValue, _ op: QueryExpression.ArithmeticOperator, _ rhs: QueryValue) -> QueryValue
    {
        if case .integer(let a) = lhs, case .integer(let b) = rhs {
            let result: (Int64, Bool)
            switch op {
            case .add: result = a.addingReportingOverflow(b)
            case .subtract: result = a.subtractingReportingOverflow(b)
            case .multiply: result = a.multipliedReportingOverflow(by: b)
            case .divide:
                guard b != 0 else { return .null }
                result = a.dividedReportingOverflow(by: b)
            case .remainder:
                guard b != 0 else { return .null }
                result = a.remainderReportingOverflow(dividingBy: b)
            }
            if !result.1 { return .integer(result.0) }
        }
        if case .string(let a) = lhs, case .string(let b) = rhs, op == .add { return .string(a + b) }
        if case .date(let date) = lhs, let seconds = rhs.doubleValue, op == .add || op == .subtract {
            return .date(date.addingTimeInterval(op == .add ? seconds : -seconds))
        }
        if case .date(let a) = lhs, case .date(let b) = rhs, op == .subtract { return .double(a.timeIntervalSince(b)) }
        guard let a = lhs.doubleValue, let b = rhs.doubleValue else { return .null }
        switch op {
        case .add: return .double(a + b)
        case .subtract: return .double(a - b)
        case .multiply: return .double(a * b)
        case .divide: return b == 0 ? .null : .double(a / b)
        case .remainder: return b == 0 ? .null : .double(a.truncatingRemainder(dividingBy: b))
        }
    }

    private mutating func test(_ op: QueryExpression.TextOperator, _ text: String, _ other: String) -> Bool {
        switch op {
        case .startsWith: return text.hasPrefix(other)
        case .endsWith: return text.hasSuffix(other)
        case .containsIgnoringCase: return text.localizedStandardContains(other)
        case .equalsIgnoringCase: return text.caseInsensitiveCompare(other) == .orderedSame
        case .matches:
            if patterns[other] == nil { patterns[other] = .some(try? Regex(other)) }
            guard let regex = patterns[other] ?? nil else { return false }
            return text.contains(regex)
        }
    }
}

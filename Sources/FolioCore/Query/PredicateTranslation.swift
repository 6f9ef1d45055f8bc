import Foundation

/// Translates Foundation's `#Predicate` into a `QueryExpression` by walking its
/// `PredicateExpressions`, each expression type translating itself (`QueryTranslatable`).
///
/// Key paths become property names through the schema (the `@Model` macro recorded each
/// property's key path), captured values become constants in their stored form. An
/// expression with no translation makes the whole predicate run on models instead.
struct PredicateTranslation {
    /// What an expression stands for, so key paths applied to it can be resolved.
    enum Shape {
        /// One model (or `nil`) of an entity.
        case model(Schema.Entity)
        /// Several models of an entity: a to-many relationship or a filter of one.
        case models(Schema.Entity)
        /// A stored value of this Swift type.
        case value(Any.Type)
    }

    /// A translated expression and its shape.
    struct Translated {
        var expression: QueryExpression
        var shape: Shape
    }

    /// Why a predicate has no translation: the expression it stopped at.
    struct Unsupported: Error, CustomStringConvertible {
        var description: String
    }

    let schema: Schema
    private var variables: [PredicateExpressions.VariableID: Translated] = [:]
    private var nextVariable = 1

    /// The query for a predicate on an entity's models, or why there is none.
    static func query<Model: PersistentModel>(for predicate: Predicate<Model>, entity: Schema.Entity, schema: Schema)
        -> Result<QueryExpression, Unsupported>
    {
        var translation = PredicateTranslation(schema: schema)
        translation.variables[predicate.variable.key] = Translated(expression: .root, shape: .model(entity))
        do {
            let translated = try translation.translate(predicate.expression)
            return .success(translated.expression)
        } catch {
            return .failure(error)
        }
    }

    /// Translates a sub-expression.
    mutating func translate(_ expression: Any) throws(Unsupported) -> Translated {
        guard let translatable = expression as? any QueryTranslatable else {
            throw Unsupported(description: "\(Self.name(of: type(of: expression))) has no query translation")
        }
        return try translatable.translate(into: &self)
    }

    /// The expression of a bound variable.
    func variable(_ key: PredicateExpressions.VariableID) throws(Unsupported) -> Translated {
        guard let bound = variables[key] else {
            throw Unsupported(description: "a variable bound outside the predicate")
        }
        return bound
    }

    /// Binds a closure's variable (`contains(where:)`, `flatMap`) to a new query variable
    /// standing for one element of `shape`, and translates its body.
    mutating func bind(_ key: PredicateExpressions.VariableID, elementOf shape: Shape, body: Any) throws(Unsupported)
        -> (Int, Translated)
    {
        let number = nextVariable
        nextVariable += 1
        let element: Shape =
            switch shape {
            case .models(let entity): .model(entity)
            case .model, .value: shape
            }
        variables[key] = Translated(expression: .variable(number), shape: element)
        return (number, try translate(body))
    }

    /// The test that a translated model is of a class or of one inheriting from it
    /// (`$0 is BusinessTrip`), and that class's entity.
    func isModel(_ base: Translated, of desired: Any.Type) throws(Unsupported) -> (
        test: QueryExpression, entity: Schema.Entity
    ) {
        guard case .model = base.shape, let type = desired as? any PersistentModel.Type,
            let entity = schema.entity(named: ModelEntities.entity(of: type).name)
        else { throw Unsupported(description: "a test of whether a \(Self.name(of: desired)) is a value's type") }
        return (.entity(of: base.expression, isOneOf: schema.entityNames(inheritingFrom: entity.name)), entity)
    }

    /// A key path applied to a translated base: a property when the base is a model, the
    /// count or emptiness of a collection or string, or a raw value of a stored enum.
    func member(_ keyPath: AnyKeyPath, of base: Translated, outputType: Any.Type) throws(Unsupported) -> Translated {
        switch base.shape {
        case .model(let entity):
            switch entity.property(readBy: keyPath) {
            case .attribute(let attribute)?:
                return Translated(expression: .member(base.expression, attribute.name), shape: .value(outputType))
            case .relationship(let relationship)?:
                guard let destination = schema.entity(named: relationship.destination) else { break }
                return Translated(
                    expression: .member(base.expression, relationship.name),
                    shape: relationship.isToMany ? .models(destination) : .model(destination))
            case nil: break
            }
            if let type = entity.modelType.value, type.persistentModelIDKeyPath == keyPath {
                return Translated(expression: base.expression, shape: .value(PersistentIdentifier.self))
            }
            throw Unsupported(
                description:
                    "a key path from \(entity.name) to \(type(of: keyPath).valueType) is not one of its stored properties"
            )
        case .models, .value:
            if let kind = (keyPath as? any CollectionKeyPath)?.commonKind {
                switch kind {
                case .count: return Translated(expression: .count(base.expression), shape: .value(Int.self))
                case .isEmpty:
                    return Translated(
                        expression: .compare(.count(base.expression), .equal, .value(.integer(0))),
                        shape: .value(Bool.self))
                }
            }
            if case .value(let type) = base.shape, let raw = type as? any RawRepresentable.Type,
                raw.rawValueKeyPath == keyPath
            {
                return Translated(expression: base.expression, shape: .value(raw.rawValueType))
            }
            // A stored property of a `Codable` value the document keeps as a JSON object: its key there.
            if case .value(let type) = base.shape, let nested = Self.nestedCodable(type),
                let key = CodingKeyProbe.key(of: keyPath, in: nested)
            {
                return Translated(expression: .member(base.expression, key), shape: .value(outputType))
            }
            let path = type(of: keyPath)
            throw Unsupported(
                description:
                    "a key path from \(path.rootType) to \(path.valueType) has no query translation: not a stored property Folio can find in the stored JSON (a computed property, or a member that is a Bool or an enum); count, isEmpty and rawValue do"
            )
        }
    }

    /// The type, without optionality, when the document keeps its values as nested JSON
    /// objects: a `Codable` struct or class, not a scalar, an enum or a collection.
    static func nestedCodable(_ type: Any.Type) -> (any Decodable.Type)? {
        let unwrapped = (type as? any OptionalValue.Type)?.wrappedType ?? type
        guard !(unwrapped is any JSONRepresentable.Type), !(unwrapped is any RawRepresentable.Type),
            !(unwrapped is any Collection.Type)
        else { return nil }
        return unwrapped as? any Decodable.Type
    }

    /// A type's name without its module, for messages.
    static func name(of type: Any.Type) -> String {
        let full = String(describing: type)
        return full.replacingOccurrences(of: "PredicateExpressions.", with: "")
    }
}

/// An expression of `#Predicate` that knows its query.
protocol QueryTranslatable {
    func translate(into translation: inout PredicateTranslation) throws(PredicateTranslation.Unsupported)
        -> PredicateTranslation.Translated
}

/// A key path that may be a collection's `count` or `isEmpty`, which predicates apply
/// to strings, arrays and to-many relationships alike.
protocol CollectionKeyPath {
    var commonKind: CommonKind? { get }
}

enum CommonKind { case count, isEmpty }

extension KeyPath: CollectionKeyPath {
    var commonKind: CommonKind? {
        guard let collection = Root.self as? any CountedCollection.Type else { return nil }
        if collection.countKeyPath == self { return .count }
        if collection.isEmptyKeyPath == self { return .isEmpty }
        return nil
    }
}

/// The collections whose `count` and `isEmpty` predicates use: each names its own
/// properties, as a key path to a protocol's property is a different key path.
protocol CountedCollection {
    static var countKeyPath: AnyKeyPath { get }
    static var isEmptyKeyPath: AnyKeyPath { get }
}

extension Array: CountedCollection {
    static var countKeyPath: AnyKeyPath { \Array.count }
    static var isEmptyKeyPath: AnyKeyPath { \Array.isEmpty }
}

extension String: CountedCollection {
    static var countKeyPath: AnyKeyPath { \String.count }
    static var isEmptyKeyPath: AnyKeyPath { \String.isEmpty }
}

extension Set: CountedCollection {
    static var countKeyPath: AnyKeyPath { \Set.count }
    static var isEmptyKeyPath: AnyKeyPath { \Set.isEmpty }
}

extension PersistentModel {
    /// `\.persistentModelID`, which a predicate compares as the document itself.
    static var persistentModelIDKeyPath: AnyKeyPath { \Self.persistentModelID }
}

extension RawRepresentable {
    static var rawValueKeyPath: AnyKeyPath { \Self.rawValue }
    static var rawValueType: Any.Type { RawValue.self }
}

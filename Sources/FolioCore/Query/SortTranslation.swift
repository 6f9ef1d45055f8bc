import Foundation

/// A sort descriptor's key path as a query expression: a stored attribute of the model,
/// followed through to-one relationships (`\Trip.owner?.name`) and into the JSON of
/// `Codable` values (`\Trip.location.city`), ending at a value the engine orders as
/// Swift does. Anything else sorts the models instead.
enum SortTranslation {
    /// The types whose order the engine shares with Swift's.
    private static let orderable: Set<ObjectIdentifier> = [
        ObjectIdentifier(String.self), ObjectIdentifier(Int.self), ObjectIdentifier(Int8.self),
        ObjectIdentifier(Int16.self),
        ObjectIdentifier(Int32.self), ObjectIdentifier(Int64.self), ObjectIdentifier(UInt.self),
        ObjectIdentifier(UInt8.self),
        ObjectIdentifier(UInt16.self), ObjectIdentifier(UInt32.self), ObjectIdentifier(UInt64.self),
        ObjectIdentifier(Double.self),
        ObjectIdentifier(Float.self), ObjectIdentifier(Date.self),
    ]

    /// The expression a key path from an entity's model reads, or `nil`.
    ///
    /// Swift cannot take a key path apart, so its printed form gives the steps
    /// (`\Trip.<computed 0x… (Optional<Owner>)>?.<computed 0x… (String)>?` for a model's
    /// tracked properties, `\Location.city` for a struct's). A model's step is the one its
    /// own key path prints the same way; a `Codable` value's is a property name the type
    /// itself confirms (`CodingKeyProbe`). A step that resolves to nothing, a subscript, or a
    /// computed property makes no expression rather than a wrong one.
    static func expression(for keyPath: AnyKeyPath, in entity: Schema.Entity, schema: Schema) -> QueryExpression? {
        // The common sort, on one of the model's own attributes, needs no printed form.
        if case .attribute(let attribute)? = entity.property(readBy: keyPath) {
            guard attribute.isStored, !attribute.isExternalStorage,
                isOrderable(type(of: keyPath).valueType, insideValue: false)
            else { return nil }
            return .member(.root, attribute.name)
        }
        guard let steps = steps(of: keyPath) else { return nil }
        var expression = QueryExpression.root
        var model: Schema.Entity? = entity
        var value: Any.Type?
        var insideValue = false
        for step in steps {
            if let current = model {
                func named(_ path: AnyKeyPath?, _ name: String) -> Bool {
                    step == name || path.flatMap(Self.steps(of:)) == [step]
                }
                if let attribute = current.attributes.first(where: { named($0.keyPath.value, $0.name) }),
                    attribute.isStored, !attribute.isExternalStorage,
                    let path = attribute.keyPath.value
                {
                    value = type(of: path).valueType
                    model = nil
                    expression = .member(expression, attribute.name)
                } else if let relationship = current.relationships.first(where: { named($0.keyPath.value, $0.name) }),
                    !relationship.isToMany,
                    let destination = schema.entity(named: relationship.destination)
                {
                    model = destination
                    expression = .member(expression, relationship.name)
                } else {
                    return nil
                }
            } else if DocumentPath.isIdentifier(step), let nested = value.flatMap(PredicateTranslation.nestedCodable),
                let found = CodingKeyProbe.key(ofPropertyNamed: step, in: nested)
            {
                expression = .member(expression, found.key)
                value = found.type
                insideValue = true
            } else {
                return nil
            }
        }
        guard let leaf = value, isOrderable(leaf, insideValue: insideValue) else { return nil }
        return expression
    }

    /// Whether the engine orders values of a type (or its optional) as Swift does.
    private static func isOrderable(_ type: Any.Type, insideValue: Bool) -> Bool {
        let unwrapped = (type as? any OptionalValue.Type)?.wrappedType ?? type
        // Inside a `Codable` value a date is the text its encoder wrote, which does not sort as dates do.
        guard !(insideValue && unwrapped == Date.self) else { return false }
        return orderable.contains(ObjectIdentifier(unwrapped))
    }

    /// The steps of a key path as it prints, without the root and without `?` and `!`:
    /// split at the dots outside `<…>` and `(…)`, which a step's type may contain.
    private static func steps(of keyPath: AnyKeyPath) -> [String]? {
        let text = "\(keyPath)"
        let prefix = "\\" + String(describing: type(of: keyPath).rootType) + "."
        guard text.hasPrefix(prefix) else { return nil }
        var steps: [String] = []
        var current = ""
        var depth = 0
        for character in text.dropFirst(prefix.count) {
            switch character {
            case "<", "(": depth += 1
            case ">", ")": depth -= 1
            case "." where depth == 0:
                steps.append(current)
                current = ""
                continue
            default: break
            }
            current.append(character)
        }
        steps.append(current)
        let trimmed = steps.map { String($0.reversed().drop { $0 == "?" || $0 == "!" }.reversed()) }
        return trimmed.contains(where: \.isEmpty) ? nil : trimmed
    }
}

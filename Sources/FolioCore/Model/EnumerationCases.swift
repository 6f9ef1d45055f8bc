import FolioJSON

extension Schema.Attribute {
    /// The stored forms of an enum's cases, for an attribute whose type is a `CaseIterable`
    /// enum with raw values, an optional of one or an array of them: what `folio.json` records
    /// as `"cases"`, so that the tool and `check` refuse a value the app could not read.
    ///
    /// `nil` for every other type, an enum that is not `CaseIterable` among them: its cases
    /// cannot be listed at run time, so its values are checked only by the app's own decoding.
    static func cases(of type: Any.Type) -> [JSONValue]? {
        if let optional = type as? any OptionalValue.Type { return cases(of: optional.wrappedType) }
        if let array = type as? any ArrayValue.Type { return cases(of: array.elementType) }
        if let enumeration = type as? any (CaseIterable & RawRepresentable).Type { return rawValues(of: enumeration) }
        return nil
    }

    private static func rawValues<Value: CaseIterable & RawRepresentable>(of type: Value.Type) -> [JSONValue]? {
        guard let coding = ValueCoding.of(Value.RawValue.self) else { return nil }
        do {
            var values: [JSONValue] = []
            for value in Value.allCases { values.append(try coding.encode(value.rawValue)) }
            return values
        } catch {
            return nil
        }
    }
}

/// Lets the schema see an array's element type at run time, for the cases of `[Kind]`.
protocol ArrayValue {
    static var elementType: Any.Type { get }
}

extension Array: ArrayValue {
    static var elementType: Any.Type { Element.self }
}

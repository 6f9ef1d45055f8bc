import FolioJSON
import Foundation

extension ValueCoding {
    /// The coding of a property's type under its options: through the transformer that
    /// `.transformable(by:)` names, else the type's own.
    static func of<Value>(_ type: Value.Type, options: [Schema.Attribute.Option]) -> ValueCoding? {
        for option in options {
            if case .transformable(let transformer) = option.kind { return transformed(Value.self, by: transformer) }
        }
        return of(Value.self)
    }

    /// A value turned into `Data` by a `ValueTransformer` and stored as `Data` is (base64
    /// text); `nil` is `null`. A transformer that is missing, makes no `Data`, or cannot
    /// reverse it is an error naming the transformer, never a value lost.
    private static func transformed<Value>(_: Value.Type, by transformer: Schema.Attribute.Option.Transformer)
        -> ValueCoding
    {
        let noValue = (Value.self as? any OptionalValue.Type)?.noValue
        return ValueCoding(
            encode: { value throws(JSONError) in
                // The transformer sees the value itself, as on Darwin, not the optionals around it
                // (an optional property's value may come wrapped twice, as `Any` holding `T??`).
                var value = value
                while let optional = value as? any OptionalValue {
                    guard !optional.isNone, let wrapped = Mirror(reflecting: optional).children.first?.value else {
                        return .null
                    }
                    value = wrapped
                }
                guard let made = transformer.make() else {
                    throw JSONError(
                        .notRepresentable(
                            "no ValueTransformer is registered as \(transformer.name); register it before the store is used"
                        ))
                }
                guard let data = made.transformedValue(value) as? Data else {
                    throw JSONError(.notRepresentable("\(transformer.name) did not turn the \(Value.self) into Data"))
                }
                return data.json
            },
            decode: { json throws(JSONError) in
                if json == .null, let noValue { return noValue }
                let data = try Data(json: json)
                guard let made = transformer.make() else {
                    throw JSONError(
                        .invalidValue(
                            "no ValueTransformer is registered as \(transformer.name); register it before the store is used"
                        ))
                }
                guard let value = made.reverseTransformedValue(data), value is Value else {
                    throw JSONError(
                        .invalidValue("\(transformer.name) could not turn the stored Data back into a \(Value.self)"))
                }
                return value
            })
    }
}

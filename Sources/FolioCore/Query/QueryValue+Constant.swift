import Foundation

extension QueryValue {
    /// The constant for a Swift value captured by a predicate: its stored form (enums by
    /// raw value, `UUID`s as text), so it compares with what documents hold.
    /// `nil` when the value has no stored form.
    static func constant(_ value: Any) -> QueryValue? {
        // The common scalars first, each a cast to one concrete type: the casts to protocols
        // below look conformances up (a tenth of a point lookup's time went to this function).
        if let text = value as? String { return .string(text) }
        if let id = value as? UUID { return .string(UUIDText.text(of: id)) }
        if let number = value as? Int { return .integer(Int64(number)) }
        if let flag = value as? Bool { return .bool(flag) }
        if let optional = value as? any OptionalValue, optional.isNone { return .null }
        if let date = value as? Date { return .date(date) }
        if let dates = value as? [Date] { return .array(dates.map(QueryValue.date)) }
        if let model = value as? any PersistentModel {
            return .document(entity: model.persistentModelID.entityName, id: model.persistentModelID.id)
        }
        if let identifier = value as? PersistentIdentifier {
            return .document(entity: identifier.entityName, id: identifier.id)
        }
        guard let coding = ValueCoding.of(type(of: value)), let json = try? coding.encode(value) else { return nil }
        return QueryValue(json, type: .other)
    }
}

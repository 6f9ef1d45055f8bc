import FolioJSON
import Foundation

/// One document taken through a migration's operations: what it becomes.
struct DocumentRewrite {
    enum Outcome: Equatable {
        case unchanged
        /// New content, under this entity (the same one unless a step renamed it).
        case changed(entity: String, content: JSONObject)
        case deleted
        /// The reason the document cannot be migrated.
        case failed(String)
    }

    /// Applies the steps' operations to a document, in order. `evaluate` gives a
    /// query expression's value on the document as it stands at that point.
    static func apply(
        _ steps: [MigrationStep], to content: JSONObject, entity: String,
        evaluate: (QueryExpression, String, JSONObject) -> QueryValue
    ) -> Outcome {
        let original = (content: content, entity: entity)
        var content = content
        var entity = entity
        for step in steps {
            for operation in step.operations where operation.entity == entity {
                switch operation {
                case .addProperty(_, let property, let value):
                    guard let name = property["name"]?.stringValue, content[name] == nil else { continue }
                    content[name] = json(of: value, on: content, entity: entity, evaluate: evaluate)
                case .removeProperty(_, let name):
                    content[name] = nil
                case .renameProperty(_, let from, let to):
                    content.renameMember(from, to: to)
                case .renameEntity(_, let to):
                    entity = to
                    content[ReservedKey.entity] = .string(to)
                case .addEntity:
                    continue
                case .removeEntity:
                    return .deleted
                case .setValue(_, let name, let value, let filter):
                    if let filter, evaluate(filter, entity, content).boolValue != true { continue }
                    content[name] = json(of: value, on: content, entity: entity, evaluate: evaluate)
                case .deleteDocuments(_, let filter):
                    if evaluate(filter, entity, content).boolValue == true { return .deleted }
                case .convertType(_, let name, let type):
                    guard let value = content[name] else { continue }
                    switch convert(value, to: type) {
                    case .success(let converted): content[name] = converted
                    case .failure(let reason): return .failed("\(name): \(reason)")
                    }
                }
            }
        }
        // A document the steps leave as it was keeps its bytes and its "$version", so a
        // migration's diff shows only what it changed.
        guard let last = steps.last, content != original.content || entity != original.entity else { return .unchanged }
        content[ReservedKey.version] = .string(last.toVersion.description)
        return .changed(entity: entity, content: content)
    }

    private static func json(
        of value: MigrationValue, on content: JSONObject, entity: String,
        evaluate: (QueryExpression, String, JSONObject) -> QueryValue
    ) -> JSONValue {
        switch value {
        case .constant(let json): json
        case .expression(let expression): evaluate(expression, entity, content).json
        }
    }

    /// A value converted between text, number, date and boolean, or why it cannot be.
    static func convert(_ value: JSONValue, to type: MigrationOperation.ConvertedType) -> Result<
        JSONValue, ConversionFailure
    > {
        if value == .null { return .success(.null) }
        switch (type, value) {
        case (.string, .string): return .success(value)
        case (.string, .integer(let number)): return .success(.string(String(number)))
        case (.string, .double): return .success(.string(value.description))
        case (.string, .number(let text)): return .success(.string(text))
        case (.string, .bool(let flag)): return .success(.string(flag ? "true" : "false"))
        case (.number, .integer), (.number, .double), (.number, .number): return .success(value)
        case (.number, .bool(let flag)): return .success(.integer(flag ? 1 : 0))
        case (.number, .string(let text)):
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if let integer = Int64(trimmed) { return .success(.integer(integer)) }
            if let double = Double(trimmed), double.isFinite { return .success(.double(double)) }
            return .failure(ConversionFailure("\"\(text)\" is not a number"))
        case (.date, .string):
            guard let date = try? ISO8601Timestamp.date(from: value) else {
                return .failure(ConversionFailure("\(value) is not a date such as 2026-11-01T09:30:00Z"))
            }
            return .success(ISO8601Timestamp.jsonValue(for: date))
        case (.date, .integer), (.date, .double):
            // Numbers are seconds since 1970, as Unix time stamps are.
            let seconds = QueryValue(value, type: .other).doubleValue ?? 0
            return .success(ISO8601Timestamp.jsonValue(for: Date(timeIntervalSince1970: seconds)))
        case (.bool, .bool): return .success(value)
        case (.bool, .integer(let number)) where number == 0 || number == 1: return .success(.bool(number == 1))
        case (.bool, .string(let text)):
            switch text.lowercased() {
            case "true", "yes", "1": return .success(.bool(true))
            case "false", "no", "0": return .success(.bool(false))
            default: return .failure(ConversionFailure("\"\(text)\" is not true or false"))
            }
        default: return .failure(ConversionFailure("a \(value.typeName) cannot become a \(type.rawValue)"))
        }
    }

    struct ConversionFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}

extension QueryValue {
    /// The value as a document stores it.
    public var json: JSONValue {
        switch self {
        case .null: .null
        case .bool(let value): .bool(value)
        case .integer(let value): .integer(value)
        case .double(let value): value.json
        case .string(let text): .string(text)
        case .date(let date): ISO8601Timestamp.jsonValue(for: date)
        case .array(let values): .array(values.map(\.json))
        case .document(_, let id): .string(id.uuidString)
        case .json(let json): json
        }
    }
}

import FolioJSON
import Foundation

/// One change a migration stage makes to an entity's documents (and to the schema the
/// manifest keeps): the operations of `Migrations/<Store>/*.json`, and what a
/// lightweight stage is inferred to.
public enum MigrationOperation: Sendable, Hashable {
    /// Adds a member to every document that lacks it: a constant, or the value of a
    /// query-language expression on the document. `property` describes it in the schema.
    case addProperty(entity: String, property: JSONValue, value: MigrationValue)
    case removeProperty(entity: String, name: String)
    /// Renames a member in place, keeping its position and value.
    case renameProperty(entity: String, from: String, to: String)
    /// Renames an entity: `"$entity"` changes and documents move to the new folder, same day.
    case renameEntity(from: String, to: String)
    /// Adds an entity to the schema (its documents come later, from the app).
    case addEntity(name: String, description: JSONValue)
    /// Removes an entity and deletes all its documents.
    case removeEntity(name: String)
    /// Sets a member to a value on the documents a filter selects (all without one).
    case setValue(entity: String, name: String, value: MigrationValue, where: QueryExpression?)
    /// Deletes the documents a filter selects.
    case deleteDocuments(entity: String, where: QueryExpression)
    /// Converts a member's value between text, number, date and boolean; a value that
    /// cannot convert fails its document, with the reason.
    case convertType(entity: String, name: String, to: ConvertedType)

    /// The kinds of value `convertType` converts between.
    public enum ConvertedType: String, Sendable, Hashable, CaseIterable {
        case string, number, date, bool
    }

    /// The entity whose documents the operation touches (the old name for a rename).
    public var entity: String {
        switch self {
        case .addProperty(let entity, _, _), .removeProperty(let entity, _), .renameProperty(let entity, _, _),
            .setValue(let entity, _, _, _),
            .deleteDocuments(let entity, _), .convertType(let entity, _, _):
            entity
        case .renameEntity(let from, _): from
        case .addEntity(let name, _), .removeEntity(let name): name
        }
    }
}

/// A value a migration writes: a constant, or an expression evaluated on each document.
public enum MigrationValue: Sendable, Hashable {
    case constant(JSONValue)
    case expression(QueryExpression)
}

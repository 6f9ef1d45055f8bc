/// One version of an app's models, as SwiftData's `VersionedSchema`: the version and the
/// model types (usually nested in the enum, so each version keeps its own classes).
public protocol VersionedSchema {
    static var versionIdentifier: Schema.Version { get }
    static var models: [any PersistentModel.Type] { get }
}

extension VersionedSchema {
    /// The schema of this version's models.
    public static var schema: Schema { Schema(versionedSchema: self) }
}

extension Schema {
    /// The schema of a version's models at its version, as SwiftData's `Schema(versionedSchema:)`.
    public init(versionedSchema: any VersionedSchema.Type) {
        self.init(versionedSchema.models, version: versionedSchema.versionIdentifier)
    }
}

/// How a store moves between versions, as SwiftData's `SchemaMigrationPlan`: every
/// version, oldest first, and the stages between them.
public protocol SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { get }
    static var stages: [MigrationStage] { get }
}

/// One stage of a plan, as SwiftData's `MigrationStage`.
public enum MigrationStage {
    /// A stage Folio infers from the two schemas: properties added (optional or with a
    /// default), removed, renamed with `originalName`, entities added and removed.
    case lightweight(fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type)
    /// A stage whose closures see the old models before and the new ones after, with the
    /// schema change between them inferred as for `lightweight`; the whole plan is still
    /// one transaction on the store (see `StagedMigration`).
    case custom(
        fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type, willMigrate: ((ModelContext) throws -> Void)?,
        didMigrate: ((ModelContext) throws -> Void)?)

    var versions: (from: any VersionedSchema.Type, to: any VersionedSchema.Type) {
        switch self {
        case .lightweight(let from, let to), .custom(let from, let to, _, _): (from, to)
        }
    }
}

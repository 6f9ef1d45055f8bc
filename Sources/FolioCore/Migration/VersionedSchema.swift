import FolioJSON
import Foundation

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
///
/// `Sendable`, so a plan can keep its stages in `static let`s under Swift 6's checks (a
/// closure given to `custom` is `@Sendable`: it captures nothing that is not). Checked by
/// hand for the versions: a metatype names a type and never changes, but Swift counts a
/// protocol's as `Sendable` only when the protocol requires `SendableMetatype`, which
/// `VersionedSchema`, declared as SwiftData declares it, does not.
public enum MigrationStage: @unchecked Sendable {
    /// A stage Folio infers from the two schemas: properties added (optional or with a
    /// default), removed, renamed with `originalName`, entities added and removed.
    case lightweight(fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type)
    /// A stage whose closures see the old models before and the new ones after, with the
    /// schema change between them inferred as for `lightweight`; the whole plan is still
    /// one transaction on the store (see `StagedMigration`).
    case custom(
        fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type,
        willMigrate: (@Sendable (ModelContext) throws -> Void)?,
        didMigrate: (@Sendable (ModelContext) throws -> Void)?)

    /// A stage as data: a stage file such as those in `Migrations/<Store>/`, read when the
    /// plan runs, so an app and the `folio` tool can share one plan. Folio's.
    case file(fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type, url: URL)

    var versions: (from: any VersionedSchema.Type, to: any VersionedSchema.Type) {
        switch self {
        case .lightweight(let from, let to), .custom(let from, let to, _, _), .file(let from, let to, _): (from, to)
        }
    }

    /// The stage's change to the documents: read from its file, or inferred from the schema
    /// the store records (`schemaJSON`) and the stage's new one.
    func step(from schemaJSON: JSONValue, timeZone: TimeZone) throws(FolioError) -> MigrationStep {
        let (from, to) = versions
        guard case .file(_, _, let url) = self else {
            return try MigrationStep.lightweight(from: schemaJSON, to: to.schema, fromVersion: from.versionIdentifier)
        }
        let step = try MigrationStep(contentsOf: url, timeZone: timeZone)
        guard step.fromVersion == from.versionIdentifier, step.toVersion == to.versionIdentifier else {
            throw .migration(
                "\(url.path) migrates \(step.fromVersion) to \(step.toVersion), but the plan's stage goes from \(from.versionIdentifier) to \(to.versionIdentifier)"
            )
        }
        return step
    }
}

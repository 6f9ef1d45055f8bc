/// Makes a class a persistent model: each stored property tracked (for observers and for
/// saving) and kept by name, the entity described from the declaration, and conformance
/// to `PersistentModel` and `Observable`, as SwiftData's `@Model` does.
///
/// ```swift
/// @Model
/// final class TodoItem {
///     var text: String
///     var isCompleted = false
///     init(text: String) { self.text = text }
/// }
/// ```
@attached(
    member, conformances: PersistentModel, Observable,
    names: named(_$backingData), named(persistentBackingData), named(schemaEntity), named(init(backingData:)),
    named(_$observationRegistrar), named(access), named(withMutation), named(_$keyPaths),
    named(_$notifyObservers))
@attached(memberAttribute)
@attached(extension, conformances: PersistentModel, Observable)
public macro Model() = #externalMacro(module: "FolioMacros", type: "ModelMacro")

/// Keeps one property of a `@Model` in the model's backing data; `@Model` adds it.
@attached(accessor, names: named(init), named(get), named(set))
@attached(peer, names: prefixed(_))
public macro _PersistedProperty() = #externalMacro(module: "FolioMacros", type: "PersistedPropertyMacro")

/// How a `@Model` stores a value property: `.unique`, `.externalStorage`, `.ephemeral`,
/// `.indexed` (Folio's), a previous name for migrations.
///
/// `.spotlight` and `.allowsCloudEncryption` are accepted for SwiftData compatibility
/// and do nothing; `hashModifier` is accepted and ignored.
@attached(peer)
public macro Attribute(
    _ options: Schema.Attribute.Option..., originalName: String? = nil, hashModifier: String? = nil
) =
    #externalMacro(module: "FolioMacros", type: "SchemaMarkerMacro")

/// How a `@Model` stores a relationship: its delete rule, the property on the other side,
/// how many models it may hold, a previous name for migrations.
@attached(peer)
public macro Relationship(
    _ options: Schema.Relationship.Option..., deleteRule: Schema.Relationship.DeleteRule = .nullify,
    minimumModelCount: Int? = 0, maximumModelCount: Int? = 0,
    originalName: String? = nil, inverse: AnyKeyPath? = nil, hashModifier: String? = nil
) = #externalMacro(module: "FolioMacros", type: "SchemaMarkerMacro")

/// Leaves a property of a `@Model` out of the store: an ordinary stored property, which
/// must have an initial value.
@attached(peer)
public macro Transient() = #externalMacro(module: "FolioMacros", type: "SchemaMarkerMacro")

/// Declares that these properties, taken together, identify a model of this type:
/// inserting one whose values match an existing model's updates that model instead.
///
/// As SwiftData's `#Unique<Trip>([\.name, \.startDate])`: each array one constraint, as a
/// `Schema.Unique<T>` holds them.
@freestanding(declaration)
public macro Unique<T: PersistentModel>(_ constraints: [PartialKeyPath<T>]...) =
    #externalMacro(module: "FolioMacros", type: "SchemaConstraintMacro")

/// Declares indexes on these properties (each array one index), for faster queries.
///
/// As SwiftData's `#Index<Trip>([\.name], [\.startDate, \.endDate])`: binary indexes, as
/// `Schema.Index<T>` holds them.
@freestanding(declaration)
public macro Index<T: PersistentModel>(_ indices: [PartialKeyPath<T>]...) =
    #externalMacro(module: "FolioMacros", type: "SchemaConstraintMacro")

/// Declares indexes by kind, as SwiftData's `#Index<Trip>(.binary([\.name]), .rtree([\.latitude, \.longitude]))`.
/// Folio keeps every kind as the same sorted index, which answers ranges and equality alike.
@freestanding(declaration)
public macro Index<T: PersistentModel>(_ indices: Schema.Index<T>.Types<T>...) =
    #externalMacro(module: "FolioMacros", type: "SchemaConstraintMacro")

/// Gives an actor a model context of its own over a container (`init(modelContainer:)`)
/// and the `ModelActor` conformance, as SwiftData's `@ModelActor` does.
@attached(member, names: named(modelExecutor), named(modelContainer), named(init))
@attached(extension, conformances: ModelActor)
public macro ModelActor() = #externalMacro(module: "FolioMacros", type: "ModelActorMacro")

extension Schema {
    /// A property that refers to other models: to-one (`Model?`) or to-many (`[Model]`).
    public struct Relationship: Sendable, Hashable {
        /// What deleting a model does to the models this relationship refers to.
        public enum DeleteRule: Sendable, Hashable {
            /// Clears the other side's reference (the default).
            case nullify
            /// Deletes the related models too.
            case cascade
            /// Refuses the delete while related models remain: the save throws and writes nothing.
            case deny
            /// Leaves the related models as they are, references and all.
            case noAction
        }

        /// The property's name in Swift, which is also its key in the document.
        public var name: String
        /// The related model's type name, as written.
        public var destination: String
        /// Whether the property holds many models (`[Model]`) rather than at most one (`Model?`).
        public var isToMany: Bool
        /// Whether the property may hold no model (a to-one declared `Model?`).
        public var isOptional: Bool
        /// What deleting a model does to the models the property refers to.
        public var deleteRule: DeleteRule
        /// The property on the related model that points back, when `inverse:` names it.
        public var inverseName: String?
        /// The fewest models a to-many may hold when saved (`nil` or 0: no limit); a save below it
        /// throws `.constraint`.
        public var minimumModelCount: Int?
        /// The most models a to-many may hold when saved (`nil` or 0: no limit); a save above it
        /// throws `.constraint`.
        public var maximumModelCount: Int?
        /// The property's name in an earlier schema version (`@Relationship(originalName:)`), which a
        /// lightweight migration renames in the documents.
        public var originalName: String?
        /// Whether no two models may hold the same related model (`@Relationship(.unique)`).
        public var isUnique = false
        /// How Folio reads and writes the value; `nil` for a relationship described by hand.
        var access: RuntimeOnly<RelationshipAccess?> = RuntimeOnly(nil)
        /// The model's key path to the property.
        var keyPath: RuntimeOnly<AnyKeyPath?> = RuntimeOnly(nil)

        /// Whether the documents keep this relationship: a to-many whose inverse is a to-one
        /// is not stored, being the set of documents that point back.
        func isStored(in schema: Schema) -> Bool {
            guard isToMany, let inverseName,
                let inverse = schema.entity(named: destination)?.relationship(named: inverseName)
            else { return true }
            return inverse.isToMany
        }

        /// A relationship described by hand or by the `@Model` macro, deleting with `.nullify` and
        /// with no inverse or count limits unless given.
        public init(
            name: String, destination: String, isToMany: Bool, isOptional: Bool, deleteRule: DeleteRule = .nullify,
            inverseName: String? = nil, minimumModelCount: Int? = nil, maximumModelCount: Int? = nil,
            originalName: String? = nil
        ) {
            self.name = name
            self.destination = destination
            self.isToMany = isToMany
            self.isOptional = isOptional
            self.deleteRule = deleteRule
            self.inverseName = inverseName
            self.minimumModelCount = minimumModelCount
            self.maximumModelCount = maximumModelCount
            self.originalName = originalName
        }
    }
}

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

        public var name: String
        /// The related model's type name, as written.
        public var destination: String
        public var isToMany: Bool
        public var isOptional: Bool
        public var deleteRule: DeleteRule
        /// The property on the related model that points back, when `inverse:` names it.
        public var inverseName: String?
        public var minimumModelCount: Int?
        public var maximumModelCount: Int?
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

extension Schema {
    /// The uniqueness constraints `#Unique<T>` declares on a model, as SwiftData's
    /// `Schema.Unique<T>`: each one the key paths whose values together identify a model.
    ///
    /// `@Model` reads `#Unique` from the declaration and records each constraint in the
    /// entity's `uniquenessConstraints` by property name; this type is what the macro's arguments are.
    public final class Unique<T: PersistentModel>: Hashable {
        /// The constraints, each a list of key paths, in the order declared.
        public let constraints: [[PartialKeyPath<T>]]

        /// Constraints, one per array: `Schema.Unique<Trip>([\.name, \.startDate])`.
        public init(_ constraints: [PartialKeyPath<T>]...) { self.constraints = constraints }

        /// The properties each constraint covers, by name, as the entity's `uniquenessConstraints` records them.
        public var propertyNames: [[String]] { constraints.map(T.propertyNames) }

        /// Whether both declare the same constraints.
        public static func == (lhs: Unique, rhs: Unique) -> Bool { lhs.constraints == rhs.constraints }
        /// Hashes the constraints, consistently with `==`.
        public func hash(into hasher: inout Hasher) { hasher.combine(constraints) }
    }
}

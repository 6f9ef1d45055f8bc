extension Schema {
    /// An index of an entity, as SwiftData's `Schema.Index`: the properties it sorts by.
    public struct Index: Sendable, Hashable {
        /// The indexed properties, in order.
        public var properties: [String]

        /// An index over these properties, sorted by the first, then the next.
        public init(properties: [String]) { self.properties = properties }

        /// An index as `#Index` declares it by kind. Folio keeps every kind as one sorted
        /// index over the properties: `.rtree` (SwiftData's for spatial ranges) answers the
        /// same range queries, without the spatial layout.
        /// The `@Model` macro reads the key paths from the declaration, so the value holds nothing.
        public struct Types<Model>: Sendable {
            /// A sorted index, for equality and ranges, over the properties in the array, as
            /// SwiftData writes it: `.binary([\.name, \.date])`.
            public static func binary(_ keyPaths: [PartialKeyPath<Model>]) -> Types { Types() }
            /// SwiftData's spatial index, `.rtree([\.latitude, \.longitude])`; Folio's is the same
            /// sorted index as `.binary`.
            public static func rtree(_ keyPaths: [PartialKeyPath<Model>]) -> Types { Types() }
            /// `.binary` with the key paths listed without an array.
            public static func binary(_ keyPaths: PartialKeyPath<Model>...) -> Types { Types() }
            /// `.rtree` with the key paths listed without an array.
            public static func rtree(_ keyPaths: PartialKeyPath<Model>...) -> Types { Types() }
        }
    }

    /// A uniqueness constraint of an entity, as SwiftData's `Schema.Unique`: the properties
    /// whose values together identify a model.
    public struct Unique: Sendable, Hashable {
        /// The properties whose values together must be unique, in order.
        public var properties: [String]

        /// A constraint over these properties.
        public init(properties: [String]) { self.properties = properties }
    }
}

extension Schema.Relationship {
    /// How a relationship is kept, as `@Relationship(.unique)` writes it.
    public struct Option: Sendable, Hashable {
        let name: String
        /// A to-one that no two models may share: saving a second model that points at the
        /// same one replaces the first, as an attribute's `.unique` does. No effect on a
        /// to-many, which holds each model once anyway.
        public static let unique = Option(name: "unique")
    }
}

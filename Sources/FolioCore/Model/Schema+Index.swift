extension Schema {
    /// The indexes `#Index<T>` declares on a model, as SwiftData's `Schema.Index<T>`: each
    /// one a list of key paths, of a kind.
    ///
    /// `@Model` reads `#Index` from the declaration and records each index in the entity's
    /// `indices` by property name; this type is what the macro's arguments are.
    public final class Index<T: PersistentModel>: Hashable {
        /// An index's kind and the key paths it covers, as `#Index` writes it:
        /// `.binary([\.name, \.date])`, `.rtree([\.latitude, \.longitude])`.
        ///
        /// Folio keeps every kind as one sorted index over the properties: `.rtree`
        /// (SwiftData's for spatial ranges) answers the same range queries, without the spatial layout.
        public enum Types<P: PersistentModel>: Hashable {
            /// A sorted index, for equality and ranges, over the properties in the array.
            case binary([PartialKeyPath<P>])
            /// SwiftData's spatial index; Folio's is the same sorted index as `.binary`.
            case rtree([PartialKeyPath<P>])

            /// `.binary` with the key paths listed without an array (Folio's).
            public static func binary(_ keyPaths: PartialKeyPath<P>...) -> Types { .binary(keyPaths) }
            /// `.rtree` with the key paths listed without an array (Folio's).
            public static func rtree(_ keyPaths: PartialKeyPath<P>...) -> Types { .rtree(keyPaths) }

            /// The key paths the index covers, in order.
            public var keyPaths: [PartialKeyPath<P>] {
                switch self {
                case .binary(let keyPaths), .rtree(let keyPaths): keyPaths
                }
            }
        }

        /// The indexes, in the order declared.
        public let indices: [Types<T>]

        /// Indexes by kind: `Schema.Index<Trip>(.binary([\.name]), .rtree([\.latitude, \.longitude]))`.
        public init(_ indices: Types<T>...) { self.indices = indices }

        /// Binary indexes, one per array: `Schema.Index<Trip>([\.name], [\.start, \.end])`.
        public init(_ binaryIndices: [PartialKeyPath<T>]...) { indices = binaryIndices.map { .binary($0) } }

        /// The properties each index covers, by name, as the entity's `indices` records them.
        public var propertyNames: [[String]] { indices.map { T.propertyNames(of: $0.keyPaths) } }

        /// Whether both declare the same indexes.
        public static func == (lhs: Index, rhs: Index) -> Bool { lhs.indices == rhs.indices }
        /// Hashes the indexes, consistently with `==`.
        public func hash(into hasher: inout Hasher) { hasher.combine(indices) }
    }
}

extension PersistentModel {
    /// The names of the stored properties these key paths read, as the entity describes them.
    static func propertyNames(of keyPaths: [PartialKeyPath<Self>]) -> [String] {
        let entity = schemaEntity
        return keyPaths.compactMap { entity.property(readBy: $0)?.name }
    }
}

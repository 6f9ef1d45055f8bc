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

extension Schema {
    /// One stored property of a model as SwiftData's `schemaMetadata` lists it: its name,
    /// key path, initial value and description.
    public struct PropertyMetadata {
        /// The property's name in Swift, which is also its key in the document.
        public let name: String
        /// The model's key path to the property.
        public let keypath: AnyKeyPath
        /// The declaration's initial value (`var priority = 3` gives 3), or `nil`.
        public let defaultValue: Any?
        /// The property as the schema describes it: an attribute or a relationship.
        ///
        /// SwiftData's is `any SchemaProperty`; Folio's schema describes a property as a
        /// `Schema.Property`, so this is one (`nil` only for metadata made so by hand).
        public let metadata: Schema.Property?

        /// Metadata of one property, as SwiftData's `init(name:keypath:defaultValue:metadata:)`.
        public init(name: String, keypath: AnyKeyPath, defaultValue: Any? = nil, metadata: Schema.Property? = nil) {
            self.name = name
            self.keypath = keypath
            self.defaultValue = defaultValue
            self.metadata = metadata
        }
    }
}

extension PersistentModel {
    /// The model's stored properties in declaration order, as SwiftData's `schemaMetadata`:
    /// read from `schemaEntity`, the description `@Model` writes, so the two never differ.
    ///
    /// Inherited properties come first, read with this class's key paths
    /// (`\BusinessTrip.name`); `@Transient` properties are not stored, so not listed.
    public static var schemaMetadata: [Schema.PropertyMetadata] {
        schemaEntity.properties.compactMap { property in
            guard let keyPath = property.keyPath else { return nil }
            let defaultValue: Any? =
                if case .attribute(let attribute) = property { attribute.defaultValue } else { nil }
            return Schema.PropertyMetadata(
                name: property.name, keypath: keyPath, defaultValue: defaultValue, metadata: property)
        }
    }
}

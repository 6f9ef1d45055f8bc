extension Schema.Property {
    /// An attribute, or (when `Value` is a model, an optional model or an array of models)
    /// a relationship with the default rule. The `@Model` macro calls this for each stored
    /// property; which overload applies is settled by the property's type at compile time.
    public static func describe<Model: PersistentModel, Value>(
        _ name: String, _ keyPath: ReferenceWritableKeyPath<Model, Value>, defaultValue: (() -> Value)?,
        options: [Schema.Attribute.Option] = [], initial: Schema.Attribute.InitialValue = .none
    ) -> Self {
        let (valueType, isOptional) = unwrapped(Value.self)
        var attribute = Schema.Attribute(
            name: name, valueType: valueType, isOptional: isOptional, hasDefaultValue: defaultValue != nil,
            options: options,
            coding: ValueCoding.of(Value.self, options: options), keyPath: keyPath)
        attribute.makeDefaultValue = RuntimeOnly(defaultValue.map { make in { make() as Any } })
        attribute.cases = Schema.Attribute.cases(of: Value.self)
        attribute.initialValue = initial
        return .attribute(attribute)
    }

    /// A `let` attribute, which SwiftData persists too: written when the model is inserted,
    /// read when it is fetched, never changed.
    public static func describe<Model: PersistentModel, Value>(
        _ name: String, _ keyPath: KeyPath<Model, Value>, defaultValue: (() -> Value)?,
        options: [Schema.Attribute.Option] = [],
        initial: Schema.Attribute.InitialValue = .none
    ) -> Self {
        let (valueType, isOptional) = unwrapped(Value.self)
        var attribute = Schema.Attribute(
            name: name, valueType: valueType, isOptional: isOptional, hasDefaultValue: defaultValue != nil,
            options: options,
            coding: ValueCoding.of(Value.self, options: options), keyPath: keyPath)
        attribute.cases = Schema.Attribute.cases(of: Value.self)
        attribute.isConstant = true
        return .attribute(attribute)
    }

    /// A to-one relationship inferred from the type, as SwiftData infers it.
    public static func describe<Model: PersistentModel, Related: PersistentModel>(
        _ name: String, _ keyPath: ReferenceWritableKeyPath<Model, Related?>, defaultValue: (() -> Related?)?,
        options: [Schema.Attribute.Option] = [], initial: Schema.Attribute.InitialValue = .none
    ) -> Self {
        relationship(name, keyPath, deleteRule: .nullify)
    }

    /// A required to-one relationship inferred from the type (`var owner: Owner`, set in `init`).
    ///
    /// As SwiftData infers it: the model always has one, so a document without it does not read.
    public static func describe<Model: PersistentModel, Related: PersistentModel>(
        _ name: String, _ keyPath: ReferenceWritableKeyPath<Model, Related>, defaultValue: (() -> Related)?,
        options: [Schema.Attribute.Option] = [], initial: Schema.Attribute.InitialValue = .none
    ) -> Self {
        relationship(name, keyPath, deleteRule: .nullify)
    }

    /// A to-many relationship inferred from the type.
    public static func describe<Model: PersistentModel, Related: PersistentModel>(
        _ name: String, _ keyPath: ReferenceWritableKeyPath<Model, [Related]>, defaultValue: (() -> [Related])?,
        options: [Schema.Attribute.Option] = [], initial: Schema.Attribute.InitialValue = .none
    ) -> Self {
        relationship(name, keyPath, deleteRule: .nullify)
    }

    /// An optional to-many relationship inferred from the type (`[Item]? = []`).
    public static func describe<Model: PersistentModel, Related: PersistentModel>(
        _ name: String, _ keyPath: ReferenceWritableKeyPath<Model, [Related]?>, defaultValue: (() -> [Related]?)?,
        options: [Schema.Attribute.Option] = [], initial: Schema.Attribute.InitialValue = .none
    ) -> Self {
        relationship(name, keyPath, deleteRule: .nullify)
    }

    /// A to-one relationship declared with `@Relationship`.
    public static func relationship<Model: PersistentModel, Related: PersistentModel>(
        _ name: String, _ keyPath: ReferenceWritableKeyPath<Model, Related?>,
        deleteRule: Schema.Relationship.DeleteRule,
        inverseName: String? = nil, minimumModelCount: Int? = nil, maximumModelCount: Int? = nil,
        originalName: String? = nil,
        options: [Schema.Relationship.Option] = []
    ) -> Self {
        relationship(
            Schema.Relationship(
                name: name, destination: String(describing: Related.self), isToMany: false, isOptional: true,
                deleteRule: deleteRule,
                inverseName: inverseName, minimumModelCount: minimumModelCount, maximumModelCount: maximumModelCount,
                originalName: originalName),
            access: .toOne(keyPath), keyPath: keyPath, options: options)
    }

    /// A required to-one relationship declared with `@Relationship` (`var owner: Owner`).
    ///
    /// So that apps' non-optional to-ones compile and store as SwiftData's do: a document
    /// whose reference is `null` or names no model is an error when read.
    public static func relationship<Model: PersistentModel, Related: PersistentModel>(
        _ name: String, _ keyPath: ReferenceWritableKeyPath<Model, Related>,
        deleteRule: Schema.Relationship.DeleteRule,
        inverseName: String? = nil, minimumModelCount: Int? = nil, maximumModelCount: Int? = nil,
        originalName: String? = nil,
        options: [Schema.Relationship.Option] = []
    ) -> Self {
        relationship(
            Schema.Relationship(
                name: name, destination: String(describing: Related.self), isToMany: false, isOptional: false,
                deleteRule: deleteRule,
                inverseName: inverseName, minimumModelCount: minimumModelCount, maximumModelCount: maximumModelCount,
                originalName: originalName),
            access: .requiredToOne(keyPath), keyPath: keyPath, options: options)
    }

    /// A to-many relationship declared with `@Relationship`.
    public static func relationship<Model: PersistentModel, Related: PersistentModel>(
        _ name: String, _ keyPath: ReferenceWritableKeyPath<Model, [Related]>,
        deleteRule: Schema.Relationship.DeleteRule,
        inverseName: String? = nil, minimumModelCount: Int? = nil, maximumModelCount: Int? = nil,
        originalName: String? = nil,
        options: [Schema.Relationship.Option] = []
    ) -> Self {
        relationship(
            Schema.Relationship(
                name: name, destination: String(describing: Related.self), isToMany: true, isOptional: false,
                deleteRule: deleteRule,
                inverseName: inverseName, minimumModelCount: minimumModelCount, maximumModelCount: maximumModelCount,
                originalName: originalName),
            access: .toMany(keyPath), keyPath: keyPath, options: options)
    }

    /// An optional to-many relationship declared with `@Relationship`.
    public static func relationship<Model: PersistentModel, Related: PersistentModel>(
        _ name: String, _ keyPath: ReferenceWritableKeyPath<Model, [Related]?>,
        deleteRule: Schema.Relationship.DeleteRule,
        inverseName: String? = nil, minimumModelCount: Int? = nil, maximumModelCount: Int? = nil,
        originalName: String? = nil,
        options: [Schema.Relationship.Option] = []
    ) -> Self {
        relationship(
            Schema.Relationship(
                name: name, destination: String(describing: Related.self), isToMany: true, isOptional: true,
                deleteRule: deleteRule,
                inverseName: inverseName, minimumModelCount: minimumModelCount, maximumModelCount: maximumModelCount,
                originalName: originalName),
            access: .optionalToMany(keyPath), keyPath: keyPath, options: options)
    }

    private static func relationship(
        _ declared: Schema.Relationship, access: RelationshipAccess, keyPath: AnyKeyPath,
        options: [Schema.Relationship.Option] = []
    ) -> Self {
        var relationship = declared
        relationship.isUnique = options.contains(.unique)
        relationship.access = RuntimeOnly(access)
        relationship.keyPath = RuntimeOnly(keyPath)
        return .relationship(relationship)
    }

    /// The type's name without `Optional`, and whether it was optional.
    private static func unwrapped<Value>(_ type: Value.Type) -> (name: String, isOptional: Bool) {
        if let optional = type as? any OptionalValue.Type { return (String(describing: optional.wrappedType), true) }
        return (String(describing: type), false)
    }
}

extension Schema.Property {
    /// An attribute, or (when `Value` is a model, an optional model or an array of models)
    /// a relationship with the default rule. The `@Model` macro calls this for each stored
    /// property; which overload applies is settled by the property's type at compile time.
    public static func describe<Value>(
        _ name: String, _ type: Value.Type, hasDefaultValue: Bool, options: [Schema.Attribute.Option] = []
    ) -> Self {
        let (valueType, isOptional) = unwrapped(type)
        return .attribute(
            Schema.Attribute(name: name, valueType: valueType, isOptional: isOptional, hasDefaultValue: hasDefaultValue, options: options))
    }

    /// A to-one relationship inferred from the type, as SwiftData infers it.
    public static func describe<Model: PersistentModel>(
        _ name: String, _ type: Model?.Type, hasDefaultValue: Bool, options: [Schema.Attribute.Option] = []
    ) -> Self {
        relationship(name, type, deleteRule: .nullify)
    }

    /// A to-many relationship inferred from the type.
    public static func describe<Model: PersistentModel>(
        _ name: String, _ type: [Model].Type, hasDefaultValue: Bool, options: [Schema.Attribute.Option] = []
    ) -> Self {
        relationship(name, type, deleteRule: .nullify)
    }

    /// A to-one relationship declared with `@Relationship`.
    public static func relationship<Model: PersistentModel>(
        _ name: String, _ type: Model?.Type, deleteRule: Schema.Relationship.DeleteRule, inverseName: String? = nil,
        minimumModelCount: Int? = nil, maximumModelCount: Int? = nil, originalName: String? = nil
    ) -> Self {
        relationship(
            name, to: Model.self, isToMany: false, isOptional: true, deleteRule: deleteRule, inverseName: inverseName,
            minimumModelCount: minimumModelCount, maximumModelCount: maximumModelCount, originalName: originalName)
    }

    /// A required to-one relationship declared with `@Relationship`.
    public static func relationship<Model: PersistentModel>(
        _ name: String, _ type: Model.Type, deleteRule: Schema.Relationship.DeleteRule, inverseName: String? = nil,
        minimumModelCount: Int? = nil, maximumModelCount: Int? = nil, originalName: String? = nil
    ) -> Self {
        relationship(
            name, to: Model.self, isToMany: false, isOptional: false, deleteRule: deleteRule, inverseName: inverseName,
            minimumModelCount: minimumModelCount, maximumModelCount: maximumModelCount, originalName: originalName)
    }

    /// A to-many relationship declared with `@Relationship`.
    public static func relationship<Model: PersistentModel>(
        _ name: String, _ type: [Model].Type, deleteRule: Schema.Relationship.DeleteRule, inverseName: String? = nil,
        minimumModelCount: Int? = nil, maximumModelCount: Int? = nil, originalName: String? = nil
    ) -> Self {
        relationship(
            name, to: Model.self, isToMany: true, isOptional: false, deleteRule: deleteRule, inverseName: inverseName,
            minimumModelCount: minimumModelCount, maximumModelCount: maximumModelCount, originalName: originalName)
    }

    private static func relationship<Model: PersistentModel>(
        _ name: String, to model: Model.Type, isToMany: Bool, isOptional: Bool, deleteRule: Schema.Relationship.DeleteRule,
        inverseName: String?, minimumModelCount: Int?, maximumModelCount: Int?, originalName: String?
    ) -> Self {
        .relationship(
            Schema.Relationship(
                name: name, destination: String(describing: model), isToMany: isToMany, isOptional: isOptional, deleteRule: deleteRule,
                inverseName: inverseName, minimumModelCount: minimumModelCount, maximumModelCount: maximumModelCount,
                originalName: originalName))
    }

    /// The type's name without `Optional`, and whether it was optional.
    private static func unwrapped<Value>(_ type: Value.Type) -> (name: String, isOptional: Bool) {
        if let optional = type as? any OptionalType.Type { return (optional.wrappedTypeName, true) }
        return (String(describing: type), false)
    }
}

/// Lets the schema see through `Optional` at run time.
private protocol OptionalType {
    static var wrappedTypeName: String { get }
}

extension Optional: OptionalType {
    static var wrappedTypeName: String { String(describing: Wrapped.self) }
}

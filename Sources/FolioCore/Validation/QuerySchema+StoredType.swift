extension QuerySchema.Entity {
    /// The type an attribute's stored values must have, its enum's cases included.
    func storedType(of name: String, typeName: String) -> StoredType {
        storedTypes[name] ?? StoredType(typeName, cases: cases[name])
    }
}

/// The empty stored peer of each `@Model` property, which holds nothing: the value is in
/// the backing data. It exists so Swift sees the property initialized (see `_PersistedProperty`).
public struct PersistedValueSlot: Sendable {
    /// The slot, which holds nothing; the `@Model` macro writes it as each property's peer.
    public init() {}
}

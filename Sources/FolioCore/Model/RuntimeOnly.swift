/// A value the schema carries for the running program (how to code a property, how to
/// reach it, which class an entity is), left out of comparison: two schemas are equal
/// when their declarations are.
///
/// `@unchecked Sendable` because what it holds is immutable once made (codings of
/// `@Sendable` closures, key paths, metatypes) although Swift cannot see that of
/// `AnyKeyPath` and of a non-`Sendable` protocol's metatype.
public struct RuntimeOnly<Value>: @unchecked Sendable, Hashable {
    let value: Value

    init(_ value: Value) { self.value = value }

    /// Always `true`: what a `RuntimeOnly` holds never makes two schemas differ.
    public static func == (lhs: Self, rhs: Self) -> Bool { true }
    /// Adds nothing to the hash, as `==` ignores the value.
    public func hash(into hasher: inout Hasher) {}
}

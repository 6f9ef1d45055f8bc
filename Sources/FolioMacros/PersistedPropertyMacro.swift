import SwiftSyntax
import SwiftSyntaxMacros

/// `@_PersistedProperty`, which `@Model` puts on each stored property: the value lives in
/// the model's backing data, reads are observed, and writes are observed and recorded as changes.
///
/// Each such property gets an empty stored peer (`_name`), which its init accessor
/// initializes: so the class's own initializer sets the property through the init
/// accessor (a first value, not a change), and `init(backingData:)`, which `@Model`
/// writes, initializes the peers directly.
public struct PersistedPropertyMacro: AccessorMacro, PeerMacro {
    /// The peer slot that holds the property's first value until the model has backing data.
    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        // An implicitly-nil optional has no peer: nothing obliges an initializer to set it.
        guard let variable = declaration.as(VariableDeclSyntax.self),
            let property = StoredProperty.all(in: [MemberBlockItemSyntax(decl: variable)]).first,
            !property.isImplicitlyNil
        else { return [] }
        return ["@Transient private var _\(raw: property.name): Folio.PersistedValueSlot"]
    }

    /// The accessors: `init`, `get` and `set` through the model's backing data.
    public static func expansion(
        of node: AttributeSyntax, providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        guard let variable = declaration.as(VariableDeclSyntax.self),
            let property = StoredProperty.all(in: [MemberBlockItemSyntax(decl: variable)]).first
        else { return [] }
        let key = property.name
        let initAccessor: AccessorDeclSyntax =
            property.isImplicitlyNil
            ? """
            @storageRestrictions(accesses: \(raw: ModelMacro.backingData))
            init(initialValue) {
                Folio.ModelBackingData.setInitialValue(initialValue, forKey: \(literal: key), in: &\(raw: ModelMacro.backingData), of: Self.self)
            }
            """
            : """
            @storageRestrictions(initializes: _\(raw: key), accesses: \(raw: ModelMacro.backingData))
            init(initialValue) {
                Folio.ModelBackingData.setInitialValue(initialValue, forKey: \(literal: key), in: &\(raw: ModelMacro.backingData), of: Self.self)
                _\(raw: key) = Folio.PersistedValueSlot()
            }
            """
        return [
            initAccessor,
            """
            get {
                access(keyPath: \\.\(raw: key))
                return persistentBackingData.value(forKey: \(literal: key))
            }
            """,
            """
            set {
                withMutation(keyPath: \\.\(raw: key)) {
                    persistentBackingData.setValue(newValue, forKey: \(literal: key), of: self)
                }
            }
            """,
        ]
    }
}

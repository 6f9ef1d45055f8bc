import SwiftSyntax
import SwiftSyntaxMacros

/// `@Attribute`, `@Relationship` and `@Transient`: they add nothing themselves; `@Model`
/// reads them from the property they mark.
public struct SchemaMarkerMacro: PeerMacro {
    /// Nothing: the marker is read by `@Model`.
    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        []
    }
}

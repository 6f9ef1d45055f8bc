import SwiftSyntax
import SwiftSyntaxMacros

/// `#Unique` and `#Index`: they declare nothing themselves; `@Model` reads them from the
/// class body they stand in.
public struct SchemaConstraintMacro: DeclarationMacro {
    /// Nothing: the declaration is read by `@Model`.
    public static func expansion(
        of node: some FreestandingMacroExpansionSyntax, in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        []
    }
}

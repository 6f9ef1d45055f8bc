import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@ModelActor` on an actor: a context of its own over a container, made in
/// `init(modelContainer:)`, and the `ModelActor` conformance that exposes it.
public struct ModelActorMacro: MemberMacro, ExtensionMacro {
    /// The members: `modelExecutor`, `modelContainer`, and `init(modelContainer:)` making both.
    public static func expansion(
        of node: AttributeSyntax, providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard declaration.is(ActorDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: node, message: ModelDiagnostic.modelActorNotAnActor))
            return []
        }
        return [
            "public nonisolated let modelExecutor: any Folio.ModelExecutor",
            "public nonisolated let modelContainer: Folio.ModelContainer",
            """
            public init(modelContainer: Folio.ModelContainer) {
                self.modelExecutor = Folio.DefaultSerialModelExecutor(modelContext: Folio.ModelContext(modelContainer))
                self.modelContainer = modelContainer
            }
            """,
        ]
    }

    /// The `ModelActor` conformance, as an extension.
    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard declaration.is(ActorDeclSyntax.self), !protocols.isEmpty else { return [] }
        return [try ExtensionDeclSyntax("extension \(type.trimmed): Folio.ModelActor {}")]
    }
}

import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plugin that carries Folio's macros.
@main
struct FolioMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [
        ModelMacro.self, PersistedPropertyMacro.self, SchemaMarkerMacro.self, SchemaConstraintMacro.self,
        ModelActorMacro.self,
    ]
}

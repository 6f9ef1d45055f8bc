import FolioMacros
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

import struct SwiftSyntax.TypeSyntax

/// Folio's macros by the names the `Folio` module declares them under.
let folioMacros: [String: MacroSpec] = [
    "Model": MacroSpec(type: ModelMacro.self, conformances: ["PersistentModel", "Observable"]),
    "_PersistedProperty": MacroSpec(type: PersistedPropertyMacro.self),
    "Attribute": MacroSpec(type: SchemaMarkerMacro.self),
    "Relationship": MacroSpec(type: SchemaMarkerMacro.self),
    "Transient": MacroSpec(type: SchemaMarkerMacro.self),
    "Unique": MacroSpec(type: SchemaConstraintMacro.self),
    "Index": MacroSpec(type: SchemaConstraintMacro.self),
    "ModelActor": MacroSpec(type: ModelActorMacro.self, conformances: ["ModelActor"]),
]

/// Expands `source` with Folio's macros and records a test issue where the expansion,
/// the diagnostics or the fixed source differ from what is expected. `conformances`, when
/// given, are those `@Model` is asked for: the compiler asks a subclass of a model for none,
/// as it has them through its superclass.
func expectExpansion(
    _ source: String, expandsTo expected: String, diagnostics: [DiagnosticSpec] = [], fixedSource: String? = nil,
    conformances: [TypeSyntax]? = nil, sourceLocation: SourceLocation = #_sourceLocation
) {
    var macros = folioMacros
    if let conformances { macros["Model"] = MacroSpec(type: ModelMacro.self, conformances: conformances) }
    assertMacroExpansion(
        source, expandedSource: expected, diagnostics: diagnostics, macroSpecs: macros,
        fixedSource: fixedSource,
        failureHandler: { failure in Issue.record(Comment(rawValue: failure.message), sourceLocation: sourceLocation) })
}

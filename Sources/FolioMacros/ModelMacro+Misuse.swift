import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// What `@Model` refuses, with a diagnostic at the declaration: a model that is not a
/// class, and properties that cannot be stored.
extension ModelMacro {
    /// Whether a written type can have a stored form: not a function, a tuple or an
    /// existential (types that are not `Codable` are caught when the container opens).
    private static func isStorable(_ type: TypeSyntax) -> Bool {
        if let optional = type.as(OptionalTypeSyntax.self) { return isStorable(optional.wrappedType) }
        if let unwrapped = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            return isStorable(unwrapped.wrappedType)
        }
        if let attributed = type.as(AttributedTypeSyntax.self) { return isStorable(attributed.baseType) }
        if let tuple = type.as(TupleTypeSyntax.self) {
            return tuple.elements.count == 1 && isStorable(tuple.elements.first!.type)
        }
        if type.is(FunctionTypeSyntax.self) || type.is(SomeOrAnyTypeSyntax.self) || type.is(CompositionTypeSyntax.self)
        {
            return false
        }
        if let identifier = type.as(IdentifierTypeSyntax.self) {
            return !["Any", "AnyObject"].contains(identifier.name.text)
        }
        return true
    }

    static func diagnoseNotAClass(
        _ declaration: some DeclGroupSyntax, node: AttributeSyntax, in context: some MacroExpansionContext
    ) {
        var fixIts: [FixIt] = []
        if let structure = declaration.as(StructDeclSyntax.self) {
            let keyword = structure.structKeyword
            fixIts.append(
                FixIt(
                    message: ModelFixIt(message: "make it a class"),
                    changes: [
                        .replace(oldNode: Syntax(keyword), newNode: Syntax(keyword.with(\.tokenKind, .keyword(.class))))
                    ]))
        }
        context.diagnose(Diagnostic(node: node, message: ModelDiagnostic.notAClass, fixIts: fixIts))
    }

    /// What `@Model` cannot persist among the properties, as diagnostics. Callers pass the
    /// properties outside any `#if` (`StoredProperty.unconditional`): a build that leaves
    /// a clause out never compiles what is in it, so nothing there may stop it.
    static func problems(in properties: [StoredProperty]) -> [Diagnostic] {
        properties.compactMap { property in
            if property.isLet && !property.isTransient && property.hasInitialValue {
                let keyword = property.declaration.bindingSpecifier
                return Diagnostic(
                    node: keyword, message: ModelDiagnostic.letProperty,
                    fixIts: [
                        FixIt(
                            message: ModelFixIt(message: "use 'var'"),
                            changes: [
                                .replace(
                                    oldNode: Syntax(keyword), newNode: Syntax(keyword.with(\.tokenKind, .keyword(.var)))
                                )
                            ])
                    ])
            }
            if !property.isTransient, let type = property.binding.typeAnnotation?.type, !isStorable(type) {
                var fixIts: [FixIt] = []
                if property.hasInitialValue {
                    let declaration = property.declaration
                    let transient = AttributeSyntax(attributeName: IdentifierTypeSyntax(name: "Transient"))
                        .with(\.leadingTrivia, declaration.leadingTrivia).with(\.trailingTrivia, .space)
                    let marked = declaration.with(\.leadingTrivia, []).with(
                        \.attributes, [.attribute(transient)] + declaration.with(\.leadingTrivia, []).attributes)
                    fixIts.append(
                        FixIt(
                            message: ModelFixIt(message: "mark it @Transient"),
                            changes: [.replace(oldNode: Syntax(declaration), newNode: Syntax(marked))]))
                }
                return Diagnostic(node: type, message: ModelDiagnostic.unsupportedType, fixIts: fixIts)
            }
            if property.isTransient && !property.hasInitialValue && !property.isImplicitlyNil {
                return Diagnostic(node: property.binding.pattern, message: ModelDiagnostic.transientWithoutValue)
            }
            return nil
        }
    }
}

import SwiftSyntax

/// A stored property of a `@Model` class, as its declaration reads.
struct StoredProperty {
    let declaration: VariableDeclSyntax
    let binding: PatternBindingSyntax
    let name: String
    /// The annotated type, as written (`nil` when it is inferred from the initial value).
    let type: TypeSyntax?

    var isLet: Bool { declaration.bindingSpecifier.tokenKind == .keyword(.let) }
    var hasInitialValue: Bool { binding.initializer != nil }
    /// An optional without an initial value, which Swift starts at `nil` and an initializer
    /// need not set (the seeds' models rely on that).
    var isImplicitlyNil: Bool {
        guard !hasInitialValue, let type else { return false }
        if type.is(OptionalTypeSyntax.self) || type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return true }
        return type.as(IdentifierTypeSyntax.self)?.name.text == "Optional"
    }
    var isTransient: Bool { declaration.attribute(named: "Transient") != nil }
    var attribute: AttributeSyntax? { declaration.attribute(named: "Attribute") }
    var relationship: AttributeSyntax? { declaration.attribute(named: "Relationship") }

    /// The stored properties of a class body: not static, not computed, not the macro's own (`_$`).
    static func all(in members: MemberBlockItemListSyntax) -> [StoredProperty] {
        members.flatMap { member -> [StoredProperty] in
            guard let variable = member.decl.as(VariableDeclSyntax.self), !variable.isStatic else { return [] }
            return variable.bindings.compactMap { binding in
                guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self),
                    !identifier.identifier.text.hasPrefix("_$"), !binding.isComputed
                else { return nil }
                return StoredProperty(
                    declaration: variable, binding: binding, name: identifier.identifier.trimmedDescription,
                    type: binding.typeAnnotation?.type.trimmed)
            }
        }
    }
}

extension VariableDeclSyntax {
    var isStatic: Bool { modifiers.contains { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) } }

    func attribute(named name: String) -> AttributeSyntax? {
        attributes.lazy.compactMap { $0.as(AttributeSyntax.self) }.first { attribute in
            let written = attribute.attributeName.trimmedDescription
            return written == name || written == "Folio." + name
        }
    }
}

extension PatternBindingSyntax {
    /// Whether the binding has a getter (or is get-only): `willSet`/`didSet` alone still store.
    var isComputed: Bool {
        switch accessorBlock?.accessors {
        case .getter?: true
        case .accessors(let accessors)?:
            accessors.contains { [.keyword(.get), .keyword(.set), .keyword(._read), .keyword(._modify), .keyword(.`init`)].contains($0.accessorSpecifier.tokenKind) }
        case nil: false
        }
    }
}

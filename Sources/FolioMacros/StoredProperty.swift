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
    /// An optional `var` without an initial value, which Swift starts at `nil` and an
    /// initializer need not set (the seeds' models rely on that).
    var isImplicitlyNil: Bool {
        guard !isLet, !hasInitialValue, let type else { return false }
        if type.is(OptionalTypeSyntax.self) || type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return true }
        return type.as(IdentifierTypeSyntax.self)?.name.text == "Optional"
    }
    var isTransient: Bool { declaration.attribute(named: "Transient") != nil }
    var attribute: AttributeSyntax? { declaration.attribute(named: "Attribute") }
    var relationship: AttributeSyntax? { declaration.attribute(named: "Relationship") }

    /// The stored properties of a class body: not static, not computed, not the macro's own
    /// (`_$`), including those in every clause of an `#if`.
    static func all(in members: MemberBlockItemListSyntax) -> [StoredProperty] {
        members.flatMap { member -> [StoredProperty] in
            if let conditional = member.decl.as(IfConfigDeclSyntax.self) {
                return conditional.clauses.flatMap { clause -> [StoredProperty] in
                    if case .decls(let inner)? = clause.elements { all(in: inner) } else { [] }
                }
            }
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

extension StoredProperty {
    /// The stored properties outside any `#if`: those every build compiles, and so the
    /// only ones `@Model` may diagnose. A clause the build leaves out (`#if os(iOS)` on
    /// Linux) is never type-checked, and a macro cannot tell which clause is active.
    static func unconditional(in members: MemberBlockItemListSyntax) -> [StoredProperty] {
        all(in: members.filter { !$0.decl.is(IfConfigDeclSyntax.self) })
    }

    /// Whether any stored property of the class body sits inside an `#if`.
    static func anyConditional(in members: MemberBlockItemListSyntax) -> Bool {
        members.contains { $0.decl.is(IfConfigDeclSyntax.self) && !all(in: [$0]).isEmpty }
    }

    /// One statement per stored property, in declaration order, with the class body's
    /// `#if` clauses around those inside them: so code about the properties (the schema,
    /// `init(backingData:)`) compiles exactly the properties the class does.
    static func statements(in members: MemberBlockItemListSyntax, _ statement: (StoredProperty) -> String?) -> [String]
    {
        var lines: [String] = []
        for member in members {
            guard let conditional = member.decl.as(IfConfigDeclSyntax.self) else {
                lines += all(in: [member]).compactMap(statement)
                continue
            }
            for clause in conditional.clauses {
                lines.append(clause.poundKeyword.text + (clause.condition.map { " " + $0.trimmedDescription } ?? ""))
                if case .decls(let inner)? = clause.elements { lines += statements(in: inner, statement) }
            }
            lines.append("#endif")
        }
        return lines
    }
}

extension VariableDeclSyntax {
    var isStatic: Bool {
        modifiers.contains { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }
    }

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
            accessors.contains {
                [.keyword(.get), .keyword(.set), .keyword(._read), .keyword(._modify), .keyword(.`init`)].contains(
                    $0.accessorSpecifier.tokenKind)
            }
        case nil: false
        }
    }
}

import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Model`: tracked properties kept in the model's backing data, observation, the entity
/// described from the declaration, and the `PersistentModel` conformance.
public struct ModelMacro: MemberMacro, MemberAttributeMacro, ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax, providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let model = declaration.as(ClassDeclSyntax.self) else {
            diagnoseNotAClass(declaration, node: node, in: context)
            return []
        }
        let properties = StoredProperty.all(in: model.memberBlock.members)
        let problems = problems(in: properties)
        guard problems.isEmpty else {
            problems.forEach(context.diagnose)
            return []
        }
        let name = model.name.trimmedDescription
        let persisted = properties.filter { !$0.isTransient }
        let described = persisted.map { describe($0, in: name) }.joined(separator: ",\n")
        let unique = constraints(named: "Unique", in: model.memberBlock.members)
        let indices = constraints(named: "Index", in: model.memberBlock.members)
        let superclass = superclass(of: model, conformingTo: protocols)
        if StoredProperty.anyConditional(in: model.memberBlock.members) {
            return conditionalMembers(of: model, name: name, superclass: superclass, unique: unique, indices: indices)
        }
        let inheriting =
            superclass.map {
                "\n        inheritingFrom: \($0).self, keyPaths: \($0)._$keyPaths(rootedAt: \(name).self),"
            } ?? ""
        let initialized = persisted.map(initialization).joined()
        let keyPathsListed = persisted.map { "\n    keyPaths[\"\($0.name)\"] = \\_Root.\($0.name)" }.joined()
        return storageMembers(superclass: superclass)
            + keyPaths(of: model, superclass: superclass, listed: keyPathsListed) + [
                """
                \(raw: classMemberPrefix(model, superclass)) schemaEntity: Folio.Schema.Entity {
                    Folio.Schema.Entity(
                        name: \(literal: name),\(raw: inheriting)
                        properties: [\(raw: described.isEmpty ? "" : "\n" + described + "\n")],
                        uniquenessConstraints: \(raw: unique),
                        indices: \(raw: indices))
                }
                """,
                superclass == nil
                    ? """
                    public required init(backingData: Folio.ModelBackingData) {
                        _$backingData = backingData\(raw: initialized)
                    }
                    """
                    // A subclass sets its own stored properties first, as Swift requires before
                    // `super.init`, and drops the initial values Swift gave its properties: the
                    // document's win, and adopting them later would overwrite those.
                    : """
                    public required init(backingData: Folio.ModelBackingData) {
                        _$backingData = nil\(raw: initialized)
                        super.init(backingData: backingData)
                    }
                    """,
            ] + observation(of: name)
    }

    /// The superclass a `@Model` class inherits from, when it is itself a model
    /// (`@Model class BusinessTrip: Trip`), else `nil`.
    ///
    /// Syntax alone cannot tell a superclass from a protocol, but the compiler can: it
    /// asks for the conformances the class does not have yet, and a subclass of a model
    /// already conforms to `PersistentModel` through its superclass. A class that names
    /// `PersistentModel` itself is not a subclass either.
    private static func superclass(of model: ClassDeclSyntax, conformingTo protocols: [TypeSyntax]) -> String? {
        guard !protocols.contains(where: { $0.trimmedDescription.hasSuffix("PersistentModel") }),
            let first = model.inheritanceClause?.inheritedTypes.first?.type.trimmedDescription,
            !first.hasSuffix("PersistentModel")
        else { return nil }
        return first
    }

    /// For a class that is not `final`, the key paths of its stored properties and those
    /// it inherits, from a class that inherits from it: the key paths a subclass's entity
    /// reads them with, which equal those its predicates and sorts name
    /// (`\BusinessTrip.name`, which is not `\Trip.name`).
    private static func keyPaths(of model: ClassDeclSyntax, superclass: String?, listed: String) -> [DeclSyntax] {
        guard !model.isFinal else { return [] }
        let start = superclass.map { "\($0)._$keyPaths(rootedAt: root)" } ?? "[:]"
        return [
            """
            public static func _$keyPaths<_Root: \(raw: model.name.trimmedDescription)>(rootedAt root: _Root.Type) -> [String: Swift.AnyKeyPath] {
                var keyPaths: [String: Swift.AnyKeyPath] = \(raw: start)\(raw: listed)
                return keyPaths
            }
            """
        ]
    }

    /// How `schemaEntity` is declared: a class property unless the class is `final`, so
    /// a subclass can override it.
    private static func classMemberPrefix(_ model: ClassDeclSyntax, _ superclass: String?) -> String {
        if superclass != nil { return "public override class var" }
        return model.isFinal ? "public static var" : "public class var"
    }

    /// Where the model keeps its backing data. A subclass's init accessors run before
    /// `super.init` and cannot reach its superclass's storage: they keep their values in
    /// the subclass's own, which the superclass's backing data takes in on first use.
    private static func storageMembers(superclass: String?) -> [DeclSyntax] {
        [
            // Made on first use rather than by a default value: a default would be made in
            // `init(backingData:)` too, and thrown away, once for every model fetched.
            "private var _$backingData: Folio.ModelBackingData?",
            superclass == nil
                ? """
                public var persistentBackingData: Folio.ModelBackingData {
                    Folio.ModelBackingData.ensured(&_$backingData, of: Self.self)
                }
                """
                : """
                public override var persistentBackingData: Folio.ModelBackingData {
                    Folio.ModelBackingData.adopting(&_$backingData, into: super.persistentBackingData)
                }
                """,
        ]
    }

    /// The members for a class with stored properties inside `#if`: the schema and
    /// `init(backingData:)` are built statement by statement, with the same `#if` clauses,
    /// so each build describes and loads exactly the properties it compiles.
    private static func conditionalMembers(
        of model: ClassDeclSyntax, name: String, superclass: String?, unique: String, indices: String
    ) -> [DeclSyntax] {
        let members = model.memberBlock.members
        let described = StoredProperty.statements(in: members) {
            $0.isTransient ? nil : "properties.append(\(describe($0, in: name)))"
        }
        let initialized = StoredProperty.statements(in: members) {
            $0.isTransient ? nil : initialization(of: $0).trimmingPrefix("\n    ").description
        }
        .filter { !$0.isEmpty }.joined(separator: "\n")
        let inheriting =
            superclass.map { "inheritingFrom: \($0).self, keyPaths: \($0)._$keyPaths(rootedAt: \(name).self), " } ?? ""
        let keyPathsListed = StoredProperty.statements(in: members) {
            $0.isTransient ? nil : "keyPaths[\"\($0.name)\"] = \\_Root.\($0.name)"
        }
        return storageMembers(superclass: superclass)
            + keyPaths(of: model, superclass: superclass, listed: "\n" + keyPathsListed.joined(separator: "\n")) + [
                """
                \(raw: classMemberPrefix(model, superclass)) schemaEntity: Folio.Schema.Entity {
                    var properties: [Folio.Schema.Property] = []
                \(raw: described.joined(separator: "\n"))
                    return Folio.Schema.Entity(name: \(literal: name), \(raw: inheriting)properties: properties, uniquenessConstraints: \(raw: unique), indices: \(raw: indices))
                }
                """,
                superclass == nil
                    ? """
                    public required init(backingData: Folio.ModelBackingData) {
                        _$backingData = backingData
                    \(raw: initialized)
                    }
                    """
                    : """
                    public required init(backingData: Folio.ModelBackingData) {
                        _$backingData = nil
                    \(raw: initialized)
                        super.init(backingData: backingData)
                    }
                    """,
            ] + observation(of: name)
    }

    /// The observation registrar and the two functions the tracked accessors call.
    private static func observation(of name: String) -> [DeclSyntax] {
        [
            "private let _$observationRegistrar = Observation.ObservationRegistrar()",
            """
            internal nonisolated func access<_Member>(keyPath: KeyPath<\(raw: name), _Member>) {
                _$observationRegistrar.access(self, keyPath: keyPath)
            }
            """,
            """
            internal nonisolated func withMutation<_Member, _Result>(
                keyPath: KeyPath<\(raw: name), _Member>, _ mutation: () throws -> _Result
            ) rethrows -> _Result {
                try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
            }
            """,
        ]
    }

    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
        providingAttributesFor member: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AttributeSyntax] {
        // A class with problems gets no accessors either, so only `@Model`'s own errors show.
        guard let model = declaration.as(ClassDeclSyntax.self),
            problems(in: StoredProperty.all(in: model.memberBlock.members)).isEmpty,
            let variable = member.as(VariableDeclSyntax.self),
            let property = StoredProperty.all(in: [MemberBlockItemSyntax(decl: variable)]).first,
            !property.isLet, !property.isTransient, variable.attribute(named: "_PersistedProperty") == nil
        else { return [] }
        return ["@_PersistedProperty"]
    }

    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        // A class with problems gets no conformance either, so only `@Model`'s own errors show.
        guard let model = declaration.as(ClassDeclSyntax.self), !protocols.isEmpty,
            problems(in: StoredProperty.all(in: model.memberBlock.members)).isEmpty
        else { return [] }
        let conformances = protocols.map { protocolName in
            switch protocolName.trimmedDescription {
            case "PersistentModel": "Folio.PersistentModel"
            case "Observable": "Observation.Observable"
            case let other: other
            }
        }
        return [try ExtensionDeclSyntax("extension \(type.trimmed): \(raw: conformances.joined(separator: ", ")) {}")]
    }

    /// What `init(backingData:)` does for a property: a `let` takes its stored value (it
    /// has no accessors to read it later), a tracked `var` gets its empty peer.
    private static func initialization(of property: StoredProperty) -> String {
        if property.isLet { return "\n    self.\(property.name) = backingData.value(forKey: \"\(property.name)\")" }
        return property.isImplicitlyNil ? "" : "\n    _\(property.name) = Folio.PersistedValueSlot()"
    }

    // MARK: - The schema

    /// The call that describes one property in the entity.
    private static func describe(_ property: StoredProperty, in model: String) -> String {
        let keyPath = "\\\(model).\(property.name)"
        if let relationship = property.relationship {
            var arguments = ["\"\(property.name)\"", keyPath]
            let given = relationship.arguments?.as(LabeledExprListSyntax.self) ?? []
            arguments.append(
                "deleteRule: "
                    + (given.first { $0.label?.text == "deleteRule" }?.expression.trimmedDescription ?? ".nullify"))
            if let inverse = given.first(where: { $0.label?.text == "inverse" })?.expression.as(KeyPathExprSyntax.self),
                let last = inverse.components.last?.component.as(KeyPathPropertyComponentSyntax.self)
            {
                arguments.append("inverseName: \"\(last.declName.baseName.text)\"")
            }
            for label in ["minimumModelCount", "maximumModelCount", "originalName"] {
                if let value = given.first(where: { $0.label?.text == label }) {
                    arguments.append("\(label): \(value.expression.trimmedDescription)")
                }
            }
            let options = given.filter { $0.label == nil }.map(\.expression.trimmedDescription)
            if !options.isEmpty { arguments.append("options: [" + options.joined(separator: ", ") + "]") }
            return ".relationship(" + arguments.joined(separator: ", ") + ")"
        }
        var options: [String] = []
        for argument in property.attribute?.arguments?.as(LabeledExprListSyntax.self) ?? [] {
            switch argument.label?.text {
            case nil: options.append(argument.expression.trimmedDescription)
            case "originalName": options.append(".originalName(\(argument.expression.trimmedDescription))")
            default: break  // hashModifier: accepted, meaningless here
            }
        }
        // The initial value, as a closure the store calls for a document that lacks the
        // property (written before it was added). A stored property's initializer cannot
        // refer to the instance, so the expression means the same in a static context.
        let defaultValue = property.binding.initializer.map { "{ \($0.value.trimmedDescription) }" } ?? "nil"
        let initial =
            property.binding.initializer.flatMap { initialKind(of: $0.value) }.map { ", initial: \($0)" } ?? ""
        return
            ".describe(\"\(property.name)\", \(keyPath), defaultValue: \(defaultValue), options: [\(options.joined(separator: ", "))]\(initial))"
    }

    /// What an initial value is, for `folio.json` (`Schema.Attribute.InitialValue`): a
    /// constant (a literal, an enum case, a collection of them), the moment (`Date()`,
    /// `Date.now`, `.now`), a new `UUID()`; `nil` for anything computed otherwise.
    static func initialKind(of expression: ExprSyntax) -> String? {
        let text = expression.trimmedDescription
        if ["Date()", "Date.now", ".now", "Date.init()"].contains(text) { return ".now" }
        if ["UUID()", "UUID.init()"].contains(text) { return ".newUUID" }
        return isConstant(expression) ? ".constant" : nil
    }

    /// Whether an expression means the same value every time it runs.
    private static func isConstant(_ expression: ExprSyntax) -> Bool {
        if expression.is(IntegerLiteralExprSyntax.self) || expression.is(FloatLiteralExprSyntax.self)
            || expression.is(BooleanLiteralExprSyntax.self) || expression.is(NilLiteralExprSyntax.self)
        {
            return true
        }
        if let string = expression.as(StringLiteralExprSyntax.self) {
            return string.segments.allSatisfy { $0.is(StringSegmentSyntax.self) }
        }
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" {
            return prefix.expression.is(IntegerLiteralExprSyntax.self)
                || prefix.expression.is(FloatLiteralExprSyntax.self)
        }
        if let array = expression.as(ArrayExprSyntax.self) {
            return array.elements.allSatisfy { isConstant($0.expression) }
        }
        if let dictionary = expression.as(DictionaryExprSyntax.self) {
            guard case .elements(let elements) = dictionary.content else { return true }
            return elements.allSatisfy { isConstant($0.key) && isConstant($0.value) }
        }
        // An enum case: `.short`, or `Pool.short` (a type's name starts with a capital).
        if let member = expression.as(MemberAccessExprSyntax.self), member.declName.argumentNames == nil {
            guard let base = member.base else { return true }
            return base.as(DeclReferenceExprSyntax.self)?.baseName.text.first?.isUppercase == true
        }
        // `[String]()`, `[Animal]()`: an empty collection.
        if let call = expression.as(FunctionCallExprSyntax.self), call.arguments.isEmpty, call.trailingClosure == nil {
            return call.calledExpression.is(ArrayExprSyntax.self) || call.calledExpression.is(DictionaryExprSyntax.self)
        }
        return false
    }

    /// The property names of each `#Unique` or `#Index` in the class body, as array literal text.
    private static func constraints(named macro: String, in members: MemberBlockItemListSyntax) -> String {
        let groups = members.compactMap { $0.decl.as(MacroExpansionDeclSyntax.self) }
            .filter { $0.macroName.text == macro }
            .flatMap { expansion in
                expansion.arguments.compactMap { argument -> String? in
                    // `[\.a, \.b]`, or by kind: `.binary(\.a, \.b)`, `.rtree(\.x)`.
                    let keyPaths: [ExprSyntax]
                    if let array = argument.expression.as(ArrayExprSyntax.self) {
                        keyPaths = array.elements.map(\.expression)
                    } else if let call = argument.expression.as(FunctionCallExprSyntax.self) {
                        keyPaths = call.arguments.map(\.expression)
                    } else {
                        return nil
                    }
                    let names = keyPaths.compactMap { expression -> String? in
                        guard
                            let component = expression.as(KeyPathExprSyntax.self)?.components.last?.component
                                .as(KeyPathPropertyComponentSyntax.self)
                        else { return nil }
                        return "\"\(component.declName.baseName.text)\""
                    }
                    return "[" + names.joined(separator: ", ") + "]"
                }
            }
        return "[" + groups.joined(separator: ", ") + "]"
    }

    // MARK: - Misuse

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

    private static func diagnoseNotAClass(
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

    /// What `@Model` cannot persist among the properties, as diagnostics.
    private static func problems(in properties: [StoredProperty]) -> [Diagnostic] {
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
            if property.isTransient && !property.hasInitialValue {
                return Diagnostic(node: property.binding.pattern, message: ModelDiagnostic.transientWithoutValue)
            }
            return nil
        }
    }
}

extension ClassDeclSyntax {
    /// Whether the class is declared `final`, so that no class can inherit from it.
    var isFinal: Bool { modifiers.contains { $0.name.tokenKind == .keyword(.final) } }
}

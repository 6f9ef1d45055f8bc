import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Model`: tracked properties kept in the model's backing data, observation, the entity
/// described from the declaration, and the `PersistentModel` conformance.
public struct ModelMacro: MemberMacro, MemberAttributeMacro, ExtensionMacro {
    /// The stored property that holds a model's backing data, named here alone: `@Model`
    /// declares it, `init(backingData:)` sets it, and each tracked property's init accessor
    /// reaches it (`PersistedPropertyMacro`). `ModelMacros.swift` lists it among the names
    /// `@Model` adds, which a macro's declaration can only spell out.
    static let backingData = "_$backingData"

    /// The members `@Model` adds: the backing data, `init(backingData:)`, the schema metadata.
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
        let problems = problems(in: StoredProperty.unconditional(in: model.memberBlock.members))
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
                        \(raw: backingData) = backingData\(raw: initialized)
                    }
                    """
                    // A subclass sets its own stored properties first, as Swift requires before
                    // `super.init`, and drops the initial values Swift gave its properties: the
                    // document's win, and adopting them later would overwrite those.
                    : """
                    public required init(backingData: Folio.ModelBackingData) {
                        \(raw: backingData) = nil\(raw: initialized)
                        super.init(backingData: backingData)
                    }
                    """,
            ] + observation(of: name, members: model.memberBlock.members, superclass: superclass)
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
            "private var \(raw: backingData): Folio.ModelBackingData?",
            superclass == nil
                ? """
                public var persistentBackingData: Folio.ModelBackingData {
                    Folio.ModelBackingData.ensured(&\(raw: backingData), of: Self.self)
                }
                """
                : """
                public override var persistentBackingData: Folio.ModelBackingData {
                    Folio.ModelBackingData.adopting(&\(raw: backingData), into: super.persistentBackingData)
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
                        \(raw: backingData) = backingData
                    \(raw: initialized)
                    }
                    """
                    : """
                    public required init(backingData: Folio.ModelBackingData) {
                        \(raw: backingData) = nil
                    \(raw: initialized)
                        super.init(backingData: backingData)
                    }
                    """,
            ] + observation(of: name, members: members, superclass: superclass)
    }

    /// The observation registrar, the two functions the tracked accessors call, and
    /// `_$notifyObservers`, through which Folio tells observers of a refill from the store.
    private static func observation(
        of name: String, members: MemberBlockItemListSyntax, superclass: String?
    ) -> [DeclSyntax] {
        // Each class tells of its own properties through its own registrar, where their
        // accessors register, then hands the rest to its superclass.
        let told = StoredProperty.statements(in: members) { property in
            property.isTransient || property.isLet
                ? nil
                : "if names.contains(\"\(property.name)\") { change.send(to: _$observationRegistrar, of: self, at: \\.\(property.name)) }"
        }
        let inherited = superclass == nil ? [] : ["super._$notifyObservers(change, of: names)"]
        return [
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
            """
            public \(raw: superclass == nil ? "" : "override ")nonisolated func _$notifyObservers(_ change: Folio.ObservedChange, of names: Swift.Set<Swift.String>) {
            \(raw: (told + inherited).joined(separator: "\n"))
            }
            """,
        ]
    }

    /// `@_PersistedProperty` on each stored `var` that is neither `@Transient` nor already marked.
    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
        providingAttributesFor member: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AttributeSyntax] {
        // A class with problems gets no accessors either, so only `@Model`'s own errors show.
        guard let model = declaration.as(ClassDeclSyntax.self),
            problems(in: StoredProperty.unconditional(in: model.memberBlock.members)).isEmpty,
            let variable = member.as(VariableDeclSyntax.self),
            let property = StoredProperty.all(in: [MemberBlockItemSyntax(decl: variable)]).first,
            !property.isLet, !property.isTransient, variable.attribute(named: "_PersistedProperty") == nil
        else { return [] }
        return ["@_PersistedProperty"]
    }

    /// The conformances the class does not have yet (`PersistentModel`, `Observable`), as an extension.
    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        // A class with problems gets no conformance either, so only `@Model`'s own errors show.
        guard let model = declaration.as(ClassDeclSyntax.self), !protocols.isEmpty,
            problems(in: StoredProperty.unconditional(in: model.memberBlock.members)).isEmpty
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
}

extension ClassDeclSyntax {
    /// Whether the class is declared `final`, so that no class can inherit from it.
    var isFinal: Bool { modifiers.contains { $0.name.tokenKind == .keyword(.final) } }
}

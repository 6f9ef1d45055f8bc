import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// How `@Model` describes the entity: the call for each property, the initial values it
/// may read, and the `#Unique` and `#Index` constraints.
extension ModelMacro {
    /// The call that describes one property in the entity.
    static func describe(_ property: StoredProperty, in model: String) -> String {
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
    static func constraints(named macro: String, in members: MemberBlockItemListSyntax) -> String {
        let groups = members.compactMap { $0.decl.as(MacroExpansionDeclSyntax.self) }
            .filter { $0.macroName.text == macro }
            .flatMap { expansion in
                expansion.arguments.compactMap { argument -> String? in
                    // `[\.a, \.b]`, or by kind: `.binary([\.a, \.b])` as SwiftData declares the
                    // kinds (a case holding an array), or `.binary(\.a, \.b)`.
                    let keyPaths: [ExprSyntax]
                    if let array = argument.expression.as(ArrayExprSyntax.self) {
                        keyPaths = array.elements.map(\.expression)
                    } else if let call = argument.expression.as(FunctionCallExprSyntax.self) {
                        keyPaths = call.arguments.flatMap { argument in
                            argument.expression.as(ArrayExprSyntax.self)?.elements.map(\.expression)
                                ?? [argument.expression]
                        }
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
}

import SwiftDiagnostics

/// What `@Model` tells the developer about a declaration it cannot persist.
enum ModelDiagnostic: String, DiagnosticMessage {
    case notAClass
    case letProperty
    case missingType
    case transientWithoutValue
    case unsupportedType
    case modelActorNotAnActor

    var message: String {
        switch self {
        case .notAClass:
            "@Model applies to a class: a model has an identity that every reference shares"
        case .letProperty:
            "a stored 'let' in a @Model cannot be tracked or loaded from a document; declare it with 'var'"
        case .missingType:
            "a stored property of a @Model needs a type annotation, which its schema is built from"
        case .transientWithoutValue:
            "a @Transient property needs an initial value: models loaded from documents are made without running init"
        case .unsupportedType:
            "a @Model cannot store this type (a function, a tuple, or an existential has no JSON form); store a Codable type, or mark the property @Transient"
        case .modelActorNotAnActor:
            "@ModelActor applies to an actor, which keeps its model context to itself"
        }
    }

    var diagnosticID: MessageID { MessageID(domain: "Folio", id: rawValue) }
    var severity: DiagnosticSeverity { .error }
}

/// The fix-its `@Model` offers.
struct ModelFixIt: FixItMessage {
    let message: String
    var fixItID: MessageID { MessageID(domain: "Folio", id: message) }
}

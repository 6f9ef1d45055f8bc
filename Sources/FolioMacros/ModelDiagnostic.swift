import SwiftDiagnostics

/// What `@Model` tells the developer about a declaration it cannot persist.
enum ModelDiagnostic: String, DiagnosticMessage {
    case notAClass
    case letProperty
    case transientWithoutValue
    case unsupportedType
    case modelActorNotAnActor

    var message: String {
        switch self {
        case .notAClass:
            "@Model applies to a class: a model has an identity that every reference shares"
        case .letProperty:
            "a stored 'let' with an initial value cannot take its stored value when a model is fetched; declare it with 'var', or set it in init"
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

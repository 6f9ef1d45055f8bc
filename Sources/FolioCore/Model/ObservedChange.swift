import Observation

/// Which side of a change a model's observers are told of when Folio, not the program,
/// changes its stored values: a model refilled from its document after another context
/// saved it or the store found it changed on disk.
///
/// `@Model` writes `_$notifyObservers(_:of:)`, which sends it for each named property
/// through the class's own observation registrar, so `withObservationTracking` and SwiftUI
/// see a refill as they see an assignment.
public enum ObservedChange: Sendable {
    /// Before the values change: what `withObservationTracking`'s `onChange` hears.
    case willChange
    /// After the values changed.
    case didChange

    /// Tells `registrar`'s observers of `subject`'s property at `keyPath` of this side of a change.
    public func send<Subject: Observable, Member>(
        to registrar: ObservationRegistrar, of subject: Subject, at keyPath: KeyPath<Subject, Member>
    ) {
        switch self {
        case .willChange: registrar.willSet(subject, keyPath: keyPath)
        case .didChange: registrar.didSet(subject, keyPath: keyPath)
        }
    }
}

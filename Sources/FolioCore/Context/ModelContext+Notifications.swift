import Foundation

extension ModelContext {
    /// Posted (on `NotificationCenter.default`, the context as its object) when a save with
    /// changes begins, before delete rules apply and anything is written; no `userInfo`, as
    /// in SwiftData.
    public static let willSave = Notification.Name("Folio.ModelContext.willSave")

    /// Posted after a save wrote every change: `userInfo` holds the `[PersistentIdentifier]`
    /// inserted, updated and deleted (the ones `.cascade` reached included), under
    /// `NotificationKey` raw values, as in SwiftData. A save that throws posts none, also when
    /// a container with several stores committed some of them (see `save()`).
    public static let didSave = Notification.Name("Folio.ModelContext.didSave")

    /// The keys of a `didSave` notification's `userInfo`, as SwiftData names them.
    public enum NotificationKey: String, Sendable {
        case insertedIdentifiers
        case updatedIdentifiers
        case deletedIdentifiers
        /// Not posted by Folio: a save never invalidates every model.
        case invalidatedAllIdentifiers
        /// Not posted by Folio, which has no query generations.
        case queryGeneration
    }

    /// The identities a save wrote, as `didSave` reports them.
    struct SavedIdentifiers {
        var inserted: [PersistentIdentifier]
        var updated: [PersistentIdentifier]
        var deleted: [PersistentIdentifier]

        var userInfo: [AnyHashable: Any] {
            [
                NotificationKey.insertedIdentifiers.rawValue: inserted,
                NotificationKey.updatedIdentifiers.rawValue: updated,
                NotificationKey.deletedIdentifiers.rawValue: deleted,
            ]
        }
    }
}

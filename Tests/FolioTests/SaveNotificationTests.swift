import Folio
import FolioTestSupport
import Foundation
import Testing

@Model final class SpiceShelf {
    var label: String
    @Relationship(deleteRule: .cascade, inverse: \SpiceJar.shelf) var jars: [SpiceJar] = []
    init(label: String) { self.label = label }
}

@Model final class SpiceJar {
    var spice: String
    var shelf: SpiceShelf?
    init(spice: String) { self.spice = spice }
}

/// `ModelContext.willSave` and `didSave`, posted as SwiftData posts them.
struct SaveNotificationTests {
    /// The notifications a block's saves post for a context, in order, with their identities.
    final class Heard: @unchecked Sendable {
        var names: [Notification.Name] = []
        var inserted: [PersistentIdentifier] = []
        var updated: [PersistentIdentifier] = []
        var deleted: [PersistentIdentifier] = []
        var hadUserInfo: [Bool] = []
    }

    func listening(to context: ModelContext, during block: () throws -> Void) rethrows -> Heard {
        let heard = Heard()
        let center = NotificationCenter.default
        let observers = [ModelContext.willSave, ModelContext.didSave].map { name in
            center.addObserver(forName: name, object: context, queue: nil) { note in
                heard.names.append(note.name)
                heard.hadUserInfo.append(note.userInfo != nil)
                let info = note.userInfo ?? [:]
                heard.inserted +=
                    info[ModelContext.NotificationKey.insertedIdentifiers.rawValue] as? [PersistentIdentifier] ?? []
                heard.updated +=
                    info[ModelContext.NotificationKey.updatedIdentifiers.rawValue] as? [PersistentIdentifier] ?? []
                heard.deleted +=
                    info[ModelContext.NotificationKey.deletedIdentifiers.rawValue] as? [PersistentIdentifier] ?? []
            }
        }
        defer { observers.forEach(center.removeObserver) }
        try block()
        return heard
    }

    @Test func aSavePostsWillSaveThenDidSaveWithTheIdentitiesItWrote() throws {
        let folder = try TemporaryDirectory()
        let context = ModelContext(
            try ModelContainer(
                for: SpiceShelf.self, configurations: ModelConfiguration(url: folder.url, durability: .none)))
        let shelf = SpiceShelf(label: "Top")
        let cumin = SpiceJar(spice: "cumin")
        shelf.jars = [cumin]
        let inserting = try listening(to: context) {
            context.insert(shelf)
            try context.save()
        }
        #expect(inserting.names == [ModelContext.willSave, ModelContext.didSave])
        #expect(inserting.hadUserInfo == [false, true])
        #expect(Set(inserting.inserted) == [shelf.persistentModelID, cumin.persistentModelID])
        #expect(inserting.updated.isEmpty && inserting.deleted.isEmpty)

        let updating = try listening(to: context) {
            shelf.label = "Middle"
            try context.save()
        }
        #expect(updating.updated == [shelf.persistentModelID] && updating.inserted.isEmpty)

        // The cascade's models are among the deleted.
        let deleting = try listening(to: context) {
            context.delete(shelf)
            try context.save()
        }
        #expect(Set(deleting.deleted) == [shelf.persistentModelID, cumin.persistentModelID])

        // A save with nothing to do posts nothing, and neither does one that fails.
        let idle = try listening(to: context) { try context.save() }
        #expect(idle.names.isEmpty)
    }

    @Test func aSaveThatFailsPostsWillSaveButNoDidSave() throws {
        let folder = try TemporaryDirectory()
        let container = try ModelContainer(
            for: SpiceShelf.self, configurations: ModelConfiguration(url: folder.url, durability: .none))
        let first = ModelContext(container)
        first.insert(SpiceShelf(label: "Low"))
        try first.save()
        let context = ModelContext(container)
        let shelf = try #require(try context.fetch(FetchDescriptor<SpiceShelf>()).first)
        let elsewhere = ModelContext(container)
        let other = try #require(try elsewhere.fetch(FetchDescriptor<SpiceShelf>()).first)
        other.label = "Changed elsewhere"
        try elsewhere.save()
        let failing = listening(to: context) {
            shelf.label = "Mine"
            #expect(throws: FolioError.self) { try context.save() }
        }
        #expect(failing.names == [ModelContext.willSave])
    }
}

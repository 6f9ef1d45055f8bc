import Folio
import FolioTestSupport
import Foundation
import Testing

/// What a model says of itself through its life, as SwiftData's models do.
struct ModelLifecycleTests {
    @Test func isDeletedIsTrueFromDeleteUntilTheSaveAndFalseAfter() throws {
        for deletion in [ModelConfiguration.Deletion.soft, .hard] {
            let folder = try TemporaryDirectory()
            let context = ModelContext(
                try ModelContainer(
                    for: Backyard.self, VisitorEvent.self,
                    configurations: ModelConfiguration(url: folder.url, durability: .none, deletion: deletion)))
            let yard = Backyard(name: "South")
            context.insert(yard)
            try context.save()
            #expect(!yard.isDeleted)
            context.delete(yard)
            #expect(yard.isDeleted)
            try context.save()
            #expect(!yard.isDeleted, "\(deletion)")
            #expect((yard.deletedAt != nil) == (deletion == .soft))
        }
    }
}

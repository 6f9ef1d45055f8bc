import Folio
import FolioTestSupport
import Foundation
import Testing

/// A boat that needs one or two rowers, as `@Relationship(minimumModelCount:maximumModelCount:)` says.
@Model
final class Scull {
    var name: String
    @Relationship(deleteRule: .nullify, minimumModelCount: 1, maximumModelCount: 2, inverse: \Rower.scull) var rowers:
        [Rower] = []

    init(name: String) { self.name = name }
}

@Model
final class Rower {
    var name: String
    var scull: Scull?

    init(name: String) { self.name = name }
}

/// SwiftData's save fails when a to-many relationship holds fewer or more models than its
/// declared counts; Folio's does too, and writes nothing.
struct RelationshipCountTests {
    func context(_ folder: TemporaryDirectory) throws -> ModelContext {
        ModelContext(
            try ModelContainer(
                for: Scull.self, Rower.self, configurations: ModelConfiguration(url: folder.url, durability: .none)))
    }

    func files(in folder: TemporaryDirectory) -> [String] {
        (FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []).filter {
            $0.hasSuffix(".json") && !$0.hasPrefix(".folio")
        }
    }

    @Test func aSaveBelowTheMinimumOrAboveTheMaximumFailsAndWritesNothing() throws {
        let folder = try TemporaryDirectory()
        let context = try context(folder)
        let empty = Scull(name: "Empty")
        context.insert(empty)
        do {
            try context.save()
            Issue.record("a scull with no rower was saved")
        } catch {
            #expect(
                error.description.contains("rowers holds 0 Rower models, but its @Relationship allows 1 to 2"),
                "\(error.description)")
        }
        #expect(files(in: folder) == ["folio.json"])

        empty.rowers = [Rower(name: "A"), Rower(name: "B"), Rower(name: "C")]
        #expect(throws: FolioError.self) { try context.save() }
        #expect(files(in: folder) == ["folio.json"])

        empty.rowers.removeLast()
        try context.save()
        // The scull, its two rowers, and the third, saved without a scull.
        #expect(files(in: folder).count == 5)

        // A change that breaks the limit later fails too; deleting the extra rower in the same save counts.
        let extra = Rower(name: "D")
        empty.rowers.append(extra)
        #expect(throws: FolioError.self) { try context.save() }
        context.delete(extra)
        try context.save()
        #expect(empty.rowers.count == 2)
    }
}

/// `folio.json` records the counts, so `check` (and the tool, which never sees the models)
/// finds a store whose documents break them: a hand edit, a merge, an older app.
struct RelationshipCountCheckTests {
    @Test func theManifestRecordsTheCountsAndCheckReportsDocumentsThatBreakThem() throws {
        let folder = try TemporaryDirectory()
        let container = try ModelContainer(
            for: Scull.self, Rower.self, configurations: ModelConfiguration(url: folder.url, durability: .none))
        let context = ModelContext(container)
        let pair = Scull(name: "Pair")
        pair.rowers = [Rower(name: "A"), Rower(name: "B")]
        context.insert(pair)
        try context.save()

        let store = try DocumentStore.open(at: folder.path, durability: .none)
        let rowers = store.manifest.schema["entities"]?["Scull"]?["properties"]?.arrayValue?.first {
            $0["name"] == "rowers"
        }
        #expect(rowers?["minimumModelCount"] == 1)
        #expect(rowers?["maximumModelCount"] == 2)
        #expect(store.check().filter { $0.severity == .error }.isEmpty)

        // A third rower names the pair by hand: three, where two is the most.
        let third = try store.newDocument(
            entity: "Rower", values: ["name": "C", "scull": .string(pair.persistentModelID.id.uuidString)])
        try store.commit(store.changes(putting: third, over: nil))
        let tooMany = store.check().filter { $0.severity == .error }.map(\.message)
        #expect(
            tooMany == [
                #""rowers" holds 3 Rower documents, but its @Relationship allows 1 to 2 (minimumModelCount, maximumModelCount); add or remove Rower documents, or the app's next save of it fails"#
            ])

        // Soft-deleting all three leaves none, where one is the least.
        try store.commit(store.softDeletion(of: store.documents(entity: "Rower")))
        #expect(
            store.check().filter { $0.severity == .error }.map(\.message).first?.hasPrefix(
                #""rowers" holds 0 Rower documents"#) == true)
    }
}

import Folio
import FolioJSON
import FolioTestSupport
import Foundation
import Testing

/// A model whose past the tests restore.
@Model
final class RestoredKettle {
    var id: UUID
    var name: String
    var litres: Int
    var boughtAt: Date

    init(id: UUID = UUID(), name: String, litres: Int, boughtAt: Date) {
        self.id = id
        self.name = name
        self.litres = litres
        self.boughtAt = boughtAt
    }
}

/// `RecordRestore` and `ModelContext.restore(_:from:properties:)` on real git repositories
/// whose work tree is the store: a record's past written back, compare-and-set kept.
struct RecordRestoreTests {
    /// A repository holding a store with one kettle, "Steel" in the first commit and
    /// "Copper" in the second.
    static func kettleStore() throws -> (GitScratchRepository, ModelContainer, UUID) {
        let repository = try GitScratchRepository()
        let container = try ModelContainer(
            for: RestoredKettle.self, configurations: ModelConfiguration(url: URL(fileURLWithPath: repository.path)))
        let context = ModelContext(container)
        let kettle = RestoredKettle(name: "Steel", litres: 1, boughtAt: Date(timeIntervalSince1970: 1_790_000_000))
        context.insert(kettle)
        try context.save()
        try repository.commitAll("a steel kettle")
        kettle.name = "Copper"
        kettle.litres = 2
        try context.save()
        try repository.commitAll("copper now")
        return (repository, container, kettle.id)
    }

    /// The kettle's file in the work tree.
    static func file(of id: UUID, in repository: GitScratchRepository) throws -> String {
        let found = FileManager.default.enumerator(atPath: repository.path + "/RestoredKettle")?.compactMap {
            ($0 as? String)?.hasSuffix(id.uuidString + ".json") == true ? $0 as? String : nil
        }
        return repository.path + "/RestoredKettle/" + (try #require(found?.first))
    }

    @Test func aRestoreIsBasedOnTheFileItReadSoAChangeMeanwhileIsAConflictAndNothingIsWritten() throws {
        let (repository, _, id) = try Self.kettleStore()
        let store = try DocumentStore.open(at: repository.path)
        let restore = try RecordRestore(of: id, in: store, from: "HEAD~1")
        #expect(restore.properties.map(\.name) == ["name", "litres"])
        #expect(restore.properties.first == PropertyChange(name: "name", old: "Copper", new: "Steel"))
        #expect(restore.current?.content["name"] == "Copper")

        // A hand edit between the read and the write.
        let file = try Self.file(of: id, in: repository)
        let edited = try String(contentsOfFile: file, encoding: .utf8).replacingOccurrences(
            of: "\"Copper\"", with: "\"Brass\"")
        try edited.write(toFile: file, atomically: false, encoding: .utf8)
        let error = try #require(throws: FolioError.self) { try restore.commit(author: "undo") }
        #expect(error.kind == .conflict, "\(error)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == edited, "nothing written")

        // Read again, it writes; only the store's file differs from git's HEAD.
        let again = try RecordRestore(of: id, in: store, from: "HEAD~1", properties: ["name"])
        #expect(again.properties == [PropertyChange(name: "name", old: "Brass", new: "Steel")])
        try again.commit(author: "undo")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains("\"name\": \"Steel\"") && text.contains("\"litres\": 2"), "\(text)")
        let status = String(decoding: try repository.git("status", "--porcelain"), as: UTF8.self)
        #expect(status.split(separator: "\n").count == 1 && status.hasSuffix(".json\n"), "\(status)")
        #expect(try RecordRestore(of: id, in: store, from: "HEAD~1", properties: ["name"]).isUnchanged)
    }

    @Test func aContextRestoreIsAPendingChangeThatTheNextSaveWrites() throws {
        let (repository, container, id) = try Self.kettleStore()
        let context = ModelContext(container)
        let kettle = try #require(
            try context.fetch(FetchDescriptor<RestoredKettle>(predicate: #Predicate { $0.id == id })).first)
        let changes = try context.restore(kettle, from: "HEAD~1", properties: ["litres"])
        #expect(changes == [PropertyChange(name: "litres", old: 2, new: 1)])
        #expect(kettle.litres == 1)
        #expect(kettle.name == "Copper")
        #expect(context.hasChanges)
        let file = try Self.file(of: id, in: repository)
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains("\"litres\": 2"), "not written yet")
        try context.save()
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains("\"litres\": 1"))
        #expect(try context.restore(kettle, from: "HEAD~1", properties: ["litres"]).isEmpty)
        // An unsaved change gives way to the revision's value, which the file already holds.
        kettle.litres = 7
        #expect(try context.restore(kettle, from: "HEAD~1", properties: ["litres"]).isEmpty)
        #expect(kettle.litres == 1)
        try context.save()
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains("\"litres\": 1"))

        // Bad input is an error, and the model stays as it was.
        for revision in ["--output=x", "no-such-branch", "HEAD~5"] {
            #expect(throws: FolioError.self) { try context.restore(kettle, from: revision) }
        }
        #expect(throws: FolioError.self) { try context.restore(kettle, from: "HEAD", properties: ["colour"]) }
        #expect(kettle.litres == 1)
    }
}

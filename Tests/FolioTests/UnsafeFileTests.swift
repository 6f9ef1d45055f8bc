import Foundation
import Testing

@testable import FolioCore

/// Files a person or a tool put where they do not belong: reported with their path, never followed or overwritten.
struct UnsafeFileTests {
    @Test func malformedDocumentIsReportedWithLineAndColumnAndTheRestStaysUsable() throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory)
        let good = timer("Tea")
        try store.commit([.put(good, basedOn: nil)])
        let badID = UUID()
        let badPath = "Timer/2026/11/22/\(badID.uuidString).json"
        let broken = "{\n  \"$entity\": \"Timer\",\n  \"name\": \"Tea\",\n}\n"
        try write(broken, to: directory("store/" + badPath))
        try store.refresh()
        let issue = try #require(store.issues.first)
        #expect(issue.path == badPath)
        #expect(issue.error.kind == .unreadableJSON)
        #expect(issue.error.location?.line == 3 && issue.error.location?.column == 16)
        #expect(issue.description.hasPrefix(badPath + ":3:16: error: comma after the last member"))
        #expect(store.document(entity: "Timer", id: good.id) != nil)
        #expect(try text(at: directory("store/" + badPath)) == broken, "left untouched")
        // Writing over it is refused: nobody read it, so nobody may overwrite it.
        #expect(throws: FolioError.self) { try store.commit([.put(timer("X", id: badID), basedOn: nil)]) }
        #expect(try store.refresh().filesRead == 0, "an unchanged broken file is not read again")
    }

    @Test func symbolicLinksAreReportedAndNotFollowed() throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory)
        try write("{\"$entity\": \"Timer\", \"name\": \"Outside\"}", to: directory("outside.json"))
        let linkID = UUID()
        try FileManager.default.createDirectory(
            atPath: directory("store/Timer/2026/11/22"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: directory("store/Timer/2026/11/22/\(linkID.uuidString).json"),
            withDestinationPath: directory("outside.json"))
        try FileManager.default.createSymbolicLink(
            atPath: directory("store/TodoItem/2026"), withDestinationPath: directory(""))
        try store.refresh()
        #expect(store.document(entity: "Timer", id: linkID) == nil)
        #expect(Set(store.issues.map(\.path)) == ["Timer/2026/11/22/\(linkID.uuidString).json", "TodoItem/2026"])
        #expect(store.issues.allSatisfy { $0.description.contains("symbolic link") })
    }

    @Test func aManifestReadByItselfIsNeverFollowedThroughALink() throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory)
        let real = try #require(try StoreManifest.read(inFolder: store.root))
        #expect(real == store.manifest)
        try FileManager.default.createDirectory(atPath: directory("linked"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: directory("linked/folio.json"), withDestinationPath: store.root + "/folio.json")
        #expect(throws: FolioError.self) { _ = try StoreManifest.read(inFolder: directory("linked")) }
        #expect(try StoreManifest.read(inFolder: directory.path) == nil)
    }

    @Test func filesOutsideTheLayoutAreReported() throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory)
        try write("{}", to: directory("store/Timer/notes.json"))
        try write("{}", to: directory("store/Timer/2026/13/01/\(UUID().uuidString).json"))
        try write("{}", to: directory("store/Timer/2026/11/22/not-a-uuid.json"))
        try write("x", to: directory("store/Timer/2026/11/22/.\(UUID().uuidString).json.swp"))
        try write("# notes", to: directory("store/README.md"))
        try store.refresh()
        #expect(
            Set(store.issues.map(\.path)) == ["Timer/notes.json", "Timer/2026/13", "Timer/2026/11/22/not-a-uuid.json"])
    }

    @Test func documentWhoseEntityDisagreesWithItsFolderIsReported() throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory)
        let id = UUID()
        try write("{\n  \"$entity\": \"TodoItem\"\n}\n", to: directory("store/Timer/2026/11/22/\(id.uuidString).json"))
        try store.refresh()
        #expect(store.document(entity: "Timer", id: id) == nil && store.document(entity: "TodoItem", id: id) == nil)
        #expect(
            store.issues.first?.description.contains("says \"$entity\": \"TodoItem\" but lies in the Timer folder")
                == true)
    }

    @Test func sameIdentityInTwoDayFoldersKeepsOneAndReportsTheOther() throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory)
        let id = UUID()
        try write(
            "{\"$entity\": \"Timer\", \"name\": \"A\"}", to: directory("store/Timer/2026/11/22/\(id.uuidString).json"))
        try write(
            "{\"$entity\": \"Timer\", \"name\": \"B\"}", to: directory("store/Timer/2026/11/23/\(id.uuidString).json"))
        try store.refresh()
        #expect(store.document(entity: "Timer", id: id)?.content["name"] == "A")
        #expect(store.issues.map(\.path) == ["Timer/2026/11/23/\(id.uuidString).json"])
    }

    @Test func entityNamesMustBeIdentifiers() throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory)
        let document = Document(entity: "../etc", id: UUID(), content: [:])
        #expect(throws: FolioError.self) { try store.commit([.put(document, basedOn: nil)]) }
        #expect(DocumentPath(relativePath: "Timer/../../x/01/\(UUID().uuidString).json") == nil)
    }

    @Test func openingSomethingThatIsNotAStoreExplainsWhy() throws {
        let directory = try TemporaryDirectory()
        let error = try #require(throws: FolioError.self) { try DocumentStore.open(at: directory.path) }
        #expect(error.description.contains("holds no folio.json"))
        try write(
            "{\"format\": \"folio-store\", \"formatVersion\": 9, \"schemaVersion\": \"1\", \"timeZone\": \"UTC\"}",
            to: directory("folio.json"))
        let newer = try #require(throws: FolioError.self) { try DocumentStore.open(at: directory.path) }
        #expect(newer.description.contains("newer than this Folio understands"))
    }
}

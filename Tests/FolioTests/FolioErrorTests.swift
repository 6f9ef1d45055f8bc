import Folio
import FolioJSON
import FolioTestSupport
import Foundation
import Testing

/// `FolioError` says what failed as a kind callers match on, which can grow without
/// breaking their code, and where and why as fields, not only as text.
struct FolioErrorTests {
    func error(_ work: () throws -> Void) -> FolioError? {
        do {
            try work()
            return nil
        } catch {
            return error as? FolioError
        }
    }

    @Test func eachWayOfFailingHasAKindToMatchOn() throws {
        let folder = try TemporaryDirectory()
        let store = try DocumentStore.create(
            at: folder("notes"),
            manifest: StoreManifest(timeZone: TimeZone(identifier: "UTC")!, schema: StoreCheckTests.schema),
            durability: .none)
        #expect(error { _ = try store.newDocument(entity: "Notes", values: [:]) }?.kind == .notFound)
        let wrongType = error {
            _ = try store.newDocument(entity: "Note", values: ["title": 3, "written": "2026-11-01T00:00:00Z"])
        }
        #expect(wrongType?.kind == .invalidValue)
        #expect(
            wrongType?.reason.contains("\"title\" is not a valid String") == true, "\(String(describing: wrongType))")
        #expect(error { _ = try store.parseQuery("title ==", entity: "Note") }?.kind == .invalidQuery)
        #expect(error { _ = try DocumentStore.open(at: folder("nowhere")) }?.kind == .invalidStore)

        let boats = ModelContext(
            try ModelContainer(
                for: Scull.self, Rower.self,
                configurations: ModelConfiguration(url: folder.url.appending(path: "boats"), durability: .none)))
        boats.insert(Scull(name: "Empty"))
        let counts = error { try boats.save() }
        #expect(counts?.kind == .constraint)
        #expect(counts?.path == nil)

        let readOnly = ModelContext(
            try ModelContainer(
                for: Scull.self, Rower.self,
                configurations: ModelConfiguration(url: folder.url.appending(path: "boats"), allowsSave: false)))
        readOnly.insert(Scull(name: "Solo"))
        #expect(error { try readOnly.save() }?.kind == .misuse)
    }

    @Test func aConflictCarriesItsFileAndIsCaughtByItsKind() throws {
        let folder = try TemporaryDirectory()
        let store = try DocumentStore.create(
            at: folder("notes"),
            manifest: StoreManifest(timeZone: TimeZone(identifier: "UTC")!, schema: StoreCheckTests.schema),
            durability: .none)
        let note = try store.newDocument(entity: "Note", values: ["title": "Tea", "written": "2026-11-01T09:00:00Z"])
        try store.commit(store.changes(putting: note, over: nil))
        let stored = try #require(store.document(entity: "Note", id: note.id))
        try store.commit([.delete(stored.version)])

        var caught: FolioError?
        do {
            try store.commit([.put(note, basedOn: stored.version)])
        } catch FolioError.Kind.conflict {
            caught = store.document(entity: "Note", id: note.id) == nil ? FolioError(.conflict, "seen") : nil
        } catch {
            Issue.record("not a conflict: \(error)")
        }
        #expect(caught?.reason == "seen")

        let conflict = try #require(error { try store.commit([.put(note, basedOn: stored.version)]) })
        #expect(conflict.kind == .conflict)
        #expect(conflict.path == stored.path.relativePath)
        #expect(conflict.description.hasPrefix("\(stored.path.relativePath): error: conflict: "))
        #expect(conflict.hint?.contains("retry") == true)
    }

    @Test func aMalformedFileGivesItsLineAndColumnAsFields() throws {
        let folder = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: folder("store"), withIntermediateDirectories: true)
        _ = try folder.create("store/folio.json", contents: Array("{\n  \"format\": \"folio-store\",\n}\n".utf8))
        let error = try #require(error { _ = try DocumentStore.open(at: folder("store")) })
        #expect(error.kind == .unreadableJSON)
        #expect(error.location?.line == 2 && error.location?.column == 26)
        #expect(error.path?.hasSuffix("folio.json") == true)
        #expect(error.description.contains("folio.json:2:26: error: comma after the last member"))
    }

    @Test func kindsCanGrowAndCodeCanReportItsOwnFailuresAsFolioErrors() {
        let custom = FolioError.Kind(rawValue: "quota")
        let error = FolioError(custom, "the plan allows 3 stores", path: "Stores", hint: "delete one first")
        #expect(error.kind == custom && error.kind != .conflict)
        #expect(error.description == "Stores: error: the plan allows 3 stores\nhint: delete one first")
        let kindName: String =
            switch error.kind {
            case .conflict: "conflict"
            case .locked: "locked"
            default: error.kind.rawValue
            }
        #expect(kindName == "quota")
    }
}

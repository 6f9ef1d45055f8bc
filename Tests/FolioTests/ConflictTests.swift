import Foundation
import Testing

@testable import FolioCore

struct ConflictTests {
    @Test func handEditBetweenReadAndCommitIsAConflictAndTheEditStays() throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory)
        let document = timer("Tea")
        let other = timer("Coffee")
        try store.commit([.put(document, basedOn: nil)])
        let stored = try #require(store.document(entity: "Timer", id: document.id))
        let path = directory("store/" + stored.path.relativePath)
        let edited = "{\n  \"$entity\": \"Timer\",\n  \"name\": \"Green tea\",\n  \"minutes\": 25\n}\n"
        try write(edited, to: path)

        var changed = document
        changed.content["minutes"] = 5
        let error = try #require(throws: FolioError.self) {
            try store.commit([.put(other, basedOn: nil), .put(changed, basedOn: stored.version)])
        }
        #expect(error.kind == .conflict, "\(error)")
        #expect(error.path == stored.path.relativePath)
        #expect(try text(at: path) == edited, "the person's edit is left as it was")
        #expect(store.document(entity: "Timer", id: other.id) == nil, "nothing of the transaction was written")
        #expect(
            !FileManager.default.fileExists(atPath: directory("store/Timer/2026/11/22/\(other.id.uuidString).json")))

        try store.refresh()
        let fresh = try #require(store.document(entity: "Timer", id: document.id))
        #expect(fresh.content["name"] == "Green tea")
        try store.commit([.put(changed, basedOn: fresh.version)])
    }

    @Test(arguments: ["chmod", "touch", "same bytes in a new file"])
    func aFileWhoseStampAloneMovedIsNoConflict(_ change: String) throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory)
        let document = timer("Tea")
        try store.commit([.put(document, basedOn: nil)])
        let stored = try #require(store.document(entity: "Timer", id: document.id))
        let path = directory("store/" + stored.path.relativePath)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        switch change {
        case "chmod": #expect(chmod(path, 0o600) == 0)
        case "touch":
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSinceNow: 3600)], ofItemAtPath: path)
        default:
            try bytes.write(to: URL(fileURLWithPath: path + ".new"))
            #expect(rename(path + ".new", path) == 0)
        }

        var changed = document
        changed.content["minutes"] = 5
        try store.commit([.put(changed, basedOn: stored.version)])
        #expect(try text(at: path).contains("\"minutes\": 5"))
    }

    @Test func sameSizeRewriteWithinTheClockTickIsStillAConflict() throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory)
        let document = timer("Tea")
        let summary = try store.commit([.put(document, basedOn: nil)])
        let version = try #require(summary.versions.values.first)
        let path = directory("store/" + version.path.relativePath)
        // Same size, same inode, very likely the same mtime tick: only the content differs.
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seek(toOffset: 28)
        try handle.write(contentsOf: Data("X".utf8))
        try handle.close()
        #expect(throws: FolioError.self) { try store.commit([.put(document, basedOn: version)]) }
    }

    @Test func deletedBehindTheStoresBackIsAConflict() throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory)
        let document = timer("Tea")
        try store.commit([.put(document, basedOn: nil)])
        let stored = try #require(store.document(entity: "Timer", id: document.id))
        try FileManager.default.removeItem(atPath: directory("store/" + stored.path.relativePath))
        #expect(throws: FolioError.conflict(path: stored.path.relativePath, reason: "was deleted since it was read")) {
            try store.commit([.delete(stored.version)])
        }
    }

    @Test func creatingADocumentThatExistsIsAConflict() throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory)
        let document = timer("Tea")
        try store.commit([.put(document, basedOn: nil)])
        #expect(throws: FolioError.self) { try store.commit([.put(document, basedOn: nil)]) }
    }
}

struct InvalidInputTests {
    @Test func documentWithANonFiniteDoubleIsRefusedBeforeAnythingIsWritten() throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory)
        let good = timer("Tea")
        let bad = Document(
            entity: "Timer", id: UUID(), partitionDate: november22(), content: ["minutes": .double(.nan)])
        let error = try #require(throws: FolioError.self) {
            try store.commit([.put(good, basedOn: nil), .put(bad, basedOn: nil)])
        }
        #expect(error.description.contains("cannot be written"))
        #expect(store.document(entity: "Timer", id: good.id) == nil)
    }

    @Test func storeIsCreatedWithItsMissingParentFolders() throws {
        let directory = try TemporaryDirectory()
        _ = try DocumentStore.create(
            at: directory("a/b/store"), manifest: StoreManifest(timeZone: utc), durability: .none)
        #expect(FileManager.default.fileExists(atPath: directory("a/b/store/folio.json")))
    }
}

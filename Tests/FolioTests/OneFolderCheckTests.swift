import Folio
import FolioJSON
import FolioTestSupport
import Foundation
import Testing

/// `folio check` holds one folder at a time, never the store: what it finds from the cache
/// files and a walk is what a check of the loaded store finds.
struct OneFolderCheckTests {
    /// `StoreCheckTests`' notes and tags (a many-to-many kept on both sides), and boats
    /// that hold one or two rowers (a to-many the rowers keep, with model counts).
    static let schema: JSONValue = {
        var entities = StoreCheckTests.schema["entities"]?.objectValue ?? [:]
        entities["Boat"] = [
            "properties": [
                ["name": "name", "type": "String"],
                [
                    "name": "rowers", "destination": "Rower", "toMany": true, "deleteRule": "nullify",
                    "inverse": "boat", "minimumModelCount": 1, "maximumModelCount": 2,
                ],
            ]
        ]
        entities["Rower"] = [
            "properties": [
                ["name": "name", "type": "String"],
                ["name": "boat", "destination": "Boat", "deleteRule": "nullify", "inverse": "rowers"],
            ]
        ]
        return ["entities": .object(entities)]
    }()

    /// A store whose documents break the schema in every way that asks about other
    /// documents, written behind the edits' backs; closed, so its cache files are current.
    func brokenStore(in folder: TemporaryDirectory) throws -> (path: String, documents: Int) {
        let path = folder("store")
        let store = try DocumentStore.create(
            at: path, manifest: StoreManifest(timeZone: TimeZone(identifier: "UTC")!, schema: Self.schema),
            durability: .none)
        var count = 0
        // Made valid, then given what breaks it.
        func put(_ entity: String, _ values: JSONObject, breaking: JSONObject = [:]) throws -> Document {
            var document = try store.newDocument(entity: entity, values: values)
            for member in breaking { document.content[member.key] = member.value }
            try store.commit([.put(document, basedOn: nil)])
            count += 1
            return document
        }
        let home = try put("Tag", ["name": "home"])
        _ = try put("Tag", ["name": "home"])
        _ = try put("Tag", ["name": "home"])
        let gone = try put("Tag", ["name": "home"])
        let stored = try #require(store.document(entity: "Tag", id: gone.id))
        try store.commit(try store.softDeletion(of: [stored]))
        // Points at a tag that does not list it back, at a tag that is not there, and holds a number for a string.
        let written: JSONValue = "2026-11-22T09:30:00Z"
        _ = try put("Note", ["title": "Tea", "written": written], breaking: ["tags": [.string(home.id.uuidString)]])
        _ = try put("Note", ["title": "Gone", "written": written], breaking: ["tags": [.string(UUID().uuidString)]])
        _ = try put("Note", ["title": "Number", "written": written], breaking: ["title": 42, "titel": "typo"])
        // A boat with no rower, one with three, and a rower of a boat that is not there.
        _ = try put("Boat", ["name": "Empty"])
        let full = try put("Boat", ["name": "Full"])
        for name in ["A", "B", "C"] {
            _ = try put("Rower", ["name": .string(name)], breaking: ["boat": .string(full.id.uuidString)])
        }
        _ = try put("Rower", ["name": "Lost"], breaking: ["boat": .string(UUID().uuidString)])
        try store.close()
        return (path, count)
    }

    @Test func aCheckFromTheCacheFilesFindsWhatACheckOfTheLoadedStoreFinds() throws {
        let folder = try TemporaryDirectory()
        let (path, documents) = try brokenStore(in: folder)
        let loaded = try DocumentStore.open(at: path).check()
        #expect(loaded.filter { $0.severity == .error }.count == 8, "\(loaded)")
        #expect(loaded.filter { $0.severity == .note }.count == 1, "\(loaded)")
        #expect(loaded.filter { $0.message.contains("is also held by") }.count == 2)

        let oneCommand = try DocumentStore.open(at: path, reads: .oneCommand)
        let (findings, files) = oneCommand.checkReport()
        #expect(findings == loaded)
        #expect(files == documents)
        #expect(oneCommand.statistics.answersFromCacheFiles >= 4, "every folder (Tag twice) from its cache file")
        #expect(oneCommand.statistics.filesRead == 0)
    }

    @Test func aFolderTheCacheCannotTellIsLoadedForItsCheckAndReportsItsBrokenFile() throws {
        let folder = try TemporaryDirectory()
        let (path, documents) = try brokenStore(in: folder)
        let broken = "Tag/2026/11/22/\(UUID().uuidString).json"
        try FileManager.default.createDirectory(atPath: path + "/Tag/2026/11/22", withIntermediateDirectories: true)
        try Data("{\n  \"$entity\": \"Tag\",\n  \"name\": \n}\n".utf8).write(
            to: URL(fileURLWithPath: path + "/" + broken))
        let loaded = try DocumentStore.open(at: path).check()
        let parseError = try #require(loaded.first { $0.path == broken })
        #expect(parseError.line == 4)

        let oneCommand = try DocumentStore.open(at: path, reads: .oneCommand)
        let (findings, files) = oneCommand.checkReport()
        #expect(findings == loaded)
        #expect(files == documents + 1)
    }
}

import Foundation
import Testing

@testable import FolioCore

struct DocumentStoreTests {
    @Test func creatingAStoreWritesTheManifestGitignoreAndEntityFolders() throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory)
        #expect(
            try text(at: directory("store/folio.json")) == """
                {
                  "format": "folio-store",
                  "formatVersion": 1,
                  "schemaVersion": "1.0.0",
                  "timeZone": "\(utc.identifier)",
                  "schema": {
                    "entities": {
                      "Timer": {},
                      "TodoItem": {}
                    }
                  }
                }

                """)
        #expect(try text(at: directory("store/.gitignore")).contains(".folio/"))
        #expect(try text(at: directory("store/.gitignore")).contains(".*.staged"))
        #expect(FileManager.default.fileExists(atPath: directory("store/Timer")))
        #expect(store.manifest.timeZone == utc)
        #expect(throws: FolioError.self) { try makeStore(in: directory) }
    }

    @Test func committedDocumentLandsAtItsDayPathInCanonicalText() throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory)
        let id = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        let summary = try store.commit([.put(timer("Tea", id: id), basedOn: nil)])
        #expect(summary.written == 1)
        let path = directory("store/Timer/2026/11/22/E621E1F8-C36C-495A-93FC-0C247A3E6E5F.json")
        #expect(try text(at: path) == "{\n  \"$entity\": \"Timer\",\n  \"name\": \"Tea\",\n  \"minutes\": 25\n}\n")
        #expect(store.document(entity: "Timer", id: id)?.content["name"] == "Tea")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory("store/.folio/journal")).isEmpty)
    }

    @Test func partitionDayFollowsTheStoresTimeZone() throws {
        let directory = try TemporaryDirectory()
        let manifest = StoreManifest(timeZone: TimeZone(identifier: "America/Los_Angeles")!)
        let store = try DocumentStore.create(at: directory("store"), manifest: manifest, durability: .none)
        let id = UUID()
        try store.commit([.put(timer("Late", id: id, date: november22(hour: 3)), basedOn: nil)])
        #expect(store.document(entity: "Timer", id: id)?.path.day == Day(year: 2026, month: 11, day: 21))
    }

    @Test func changingThePartitionDateMovesTheDocumentAndItsBlobs() throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory)
        var document = timer("Tea")
        document.blobs = ["photo": [1, 2, 3]]
        try store.commit([.put(document, basedOn: nil)])
        let stored = try #require(store.document(entity: "Timer", id: document.id))
        #expect(try store.blob(of: stored.path, property: "photo") == [1, 2, 3])

        document.partitionDate = november22().addingTimeInterval(86_400 * 40)
        document.blobs = [:]
        try store.commit([.put(document, basedOn: stored.version)])
        let moved = try #require(store.document(entity: "Timer", id: document.id))
        #expect(moved.path.relativePath == "Timer/2027/01/01/\(document.id.uuidString).json")
        #expect(!FileManager.default.fileExists(atPath: directory("store/" + stored.path.relativePath)))
        #expect(
            !FileManager.default.fileExists(
                atPath: directory("store/Timer/2026/11/22/\(document.id.uuidString).photo.bin")))
        #expect(try store.blob(of: moved.path, property: "photo") == [1, 2, 3])
        #expect(
            try DocumentStore.open(at: directory("store")).document(entity: "Timer", id: document.id)?.path
                == moved.path)
    }

    @Test func blobsCanBeReplacedAndRemoved() throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory)
        var document = timer("Tea")
        document.blobs = ["photo": [1]]
        try store.commit([.put(document, basedOn: nil)])
        var stored = try #require(store.document(entity: "Timer", id: document.id))
        document.blobs = ["photo": [9, 9]]
        try store.commit([.put(document, basedOn: stored.version)])
        #expect(try store.blob(of: stored.path, property: "photo") == [9, 9])
        stored = try #require(store.document(entity: "Timer", id: document.id))
        document.blobs = ["photo": nil]
        try store.commit([.put(document, basedOn: stored.version)])
        #expect(try store.blob(of: stored.path, property: "photo") == nil)
        #expect(
            !FileManager.default.fileExists(
                atPath: directory("store/Timer/2026/11/22/\(document.id.uuidString).photo.bin")))
    }

    @Test func savingUnchangedDocumentsWritesNothing() throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory)
        let document = timer("Tea")
        try store.commit([.put(document, basedOn: nil)])
        let stored = try #require(store.document(entity: "Timer", id: document.id))
        let summary = try store.commit([.put(document, basedOn: stored.version)])
        #expect(summary.written == 0 && summary.unchanged == 1)
        #expect(
            store.document(entity: "Timer", id: document.id)?.version == stored.version, "the file was not rewritten")
        #expect(store.statistics.transactionsCommitted == 1)
    }

    @Test func deletingRemovesTheDocumentAndItsBlobs() throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory)
        var document = timer("Tea")
        document.blobs = ["photo": [7]]
        try store.commit([.put(document, basedOn: nil)])
        let stored = try #require(store.document(entity: "Timer", id: document.id))
        #expect(try store.commit([.delete(stored.version)]).deleted == 1)
        #expect(store.document(entity: "Timer", id: document.id) == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory("store/Timer/2026/11/22")).isEmpty)
    }

    @Test func aTransactionOfManyDocumentsIsCommittedTogether() throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(in: directory)
        let documents = (0..<300).map { timer("Timer \($0)", date: november22().addingTimeInterval(Double($0) * 3600)) }
        try store.commit(documents.map { .put($0, basedOn: nil) })
        #expect(store.documents(entity: "Timer").count == 300)
        let reopened = try DocumentStore.open(at: directory("store"))
        let found: Set<UUID> = Set(reopened.documents(entity: "Timer").map(\.id))
        #expect(found == Set(documents.map(\.id)))
    }

    @Test func aMalformedOffsetTimeZoneIsAnUnknownTimeZoneNotATrap() throws {
        // Found by Fuzz/manifest-fuzzer: Foundation trapped reading "GMT+05:s0".
        func manifest(_ zone: String) -> JSONValue {
            ["format": "folio-store", "formatVersion": 1, "schemaVersion": "1.0.0", "timeZone": .string(zone)]
        }
        for zone in ["GMT+05:s0", "UTC-1.x5", "GMT+05:\u{E9}0", "GMT+"] {
            #expect(
                throws: FolioError.invalidStore(
                    path: "folio.json", reason: "unknown time zone \"\(zone)\" in the manifest")
            ) {
                try StoreManifest(json: manifest(zone), path: "folio.json")
            }
        }
        for zone in ["GMT+5", "GMT-05", "GMT+0530", "UTC+5:30", "GMT+05.30", "GMT", "Europe/Berlin"] {
            #expect(
                try StoreManifest(json: manifest(zone), path: "folio.json").timeZone == TimeZone(identifier: zone),
                "\(zone)")
        }
    }
}

struct DocumentPathTests {
    @Test func pathsOrderAsTheirRelativePathsDo() throws {
        var generator = SystemRandomNumberGenerator()
        let paths = try (0..<500).map { index in
            let day = Day(year: 2025 + index % 2, month: 1 + index % 12, day: 1 + index % 28)!
            let path = try DocumentPath(entity: ["Timer", "TodoItem", "A"][index % 3], day: day, id: UUID())
            return try [path, path.blob("photo"), path.blob("a"), path.blob("js")].randomElement(using: &generator)!
        }
        let withSiblings = paths + (try paths.map { try $0.document.blob("a") }) + paths.map(\.document)
        #expect(withSiblings.sorted().map(\.relativePath) == withSiblings.map(\.relativePath).sorted())
    }

    @Test func relativePathsParseBackToThemselves() throws {
        let path = try DocumentPath(entity: "Timer", day: Day(year: 2026, month: 11, day: 22)!, id: UUID()).blob(
            "photo")
        #expect(DocumentPath(relativePath: path.relativePath) == path)
        #expect(DocumentPath(relativePath: "Timer/2026/02/30/\(UUID().uuidString).json") == nil)
        #expect(DocumentPath(relativePath: "1Timer/2026/02/03/\(UUID().uuidString).json") == nil)
    }

    @Test func pathsSpellTheirDayAndUUIDAsFoundationWould() throws {
        for _ in 0..<100 {
            let id = UUID()
            let path = try DocumentPath(
                entity: "Timer", day: Day(year: Int.random(in: 0...9999), month: 1, day: 9)!, id: id)
            #expect(path.fileName == id.uuidString + ".json")
            #expect(try path.blob("photo").fileName == id.uuidString + ".photo.bin")
            #expect(path.day.folder == String(format: "%04d/01/09", path.day.year))
        }
        var outOfRange = Day(year: 2026, month: 11, day: 22)!
        outOfRange.year = 12_026
        #expect(outOfRange.folder == "12026/11/22")
    }
}

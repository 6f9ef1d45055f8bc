import Folio
import FolioJSON
import Foundation
import Testing

/// `DocumentStore.check()` and the schema-shaped edits, through the public API, on a
/// store whose schema has a many-to-many kept on both sides.
struct StoreCheckTests {
    static let schema: JSONValue = [
        "entities": [
            "Note": [
                "properties": [
                    ["name": "title", "type": "String"],
                    ["name": "written", "type": "Date"],
                    [
                        "name": "tags", "destination": "Tag", "toMany": true, "deleteRule": "nullify",
                        "inverse": "notes",
                    ],
                ]
            ],
            "Tag": [
                "properties": [
                    ["name": "name", "type": "String", "options": ["unique"]],
                    ["name": "notes", "destination": "Note", "toMany": true, "deleteRule": "deny", "inverse": "tags"],
                ]
            ],
        ]
    ]

    let folder: TemporaryDirectory
    let store: DocumentStore

    init() throws {
        folder = try TemporaryDirectory()
        store = try DocumentStore.create(
            at: folder("notes"), manifest: StoreManifest(timeZone: TimeZone(identifier: "UTC")!, schema: Self.schema),
            durability: .none)
    }

    func insert(_ entity: String, _ values: JSONObject) throws -> StoredDocument {
        let document = try store.newDocument(entity: entity, values: values)
        try store.commit(store.changes(putting: document, over: nil))
        return try #require(store.document(entity: entity, id: document.id))
    }

    @Test func linkingADocumentUpdatesTheOtherSideAndUnlinkingToo() throws {
        let tag = try insert("Tag", ["name": "home"])
        let note = try insert(
            "Note", ["title": "Tea", "written": "2026-11-22T09:30:00Z", "tags": [.string(tag.id.uuidString)]])
        #expect(store.document(entity: "Tag", id: tag.id)?.content["notes"] == [.string(note.id.uuidString)])
        #expect(store.check().isEmpty)
        try store.commit(store.changes(putting: try store.document(note, setting: ["tags": []]), over: note))
        #expect(store.document(entity: "Tag", id: tag.id)?.content["notes"] == [])
        #expect(store.check().isEmpty)
    }

    @Test func aRelationshipOnlyOneSideRecordsIsReported() throws {
        let tag = try insert("Tag", ["name": "home"])
        // Written without `changes(putting:over:)`: the tag does not list the note back.
        let note = try store.newDocument(
            entity: "Note",
            values: ["title": "Tea", "written": "2026-11-22T09:30:00Z", "tags": [.string(tag.id.uuidString)]])
        try store.commit([.put(note, basedOn: nil)])
        let findings = store.check()
        #expect(findings.map(\.severity) == [.error])
        #expect(findings.first?.path.hasSuffix(note.id.uuidString + ".json") == true)
        #expect(
            findings.first?.message
                == "\"tags\" points at Tag \(tag.id.uuidString), but its \"notes\" does not point back (it holds [])")

        let current = try #require(store.document(entity: "Tag", id: tag.id))
        try store.commit([
            .put(
                try store.document(current, setting: ["notes": [.string(note.id.uuidString)]]), basedOn: current.version
            )
        ])
        #expect(store.check().isEmpty)
    }

    @Test func duplicatesOfAUniqueValueAreReportedUnlessSoftDeleted() throws {
        _ = try insert("Tag", ["name": "home"])
        let second = try insert("Tag", ["name": "home"])
        let findings = store.check()
        #expect(findings.count == 1)
        #expect(findings.first?.message.hasPrefix("\"name\" \"home\" is also held by Tag/2") == true)
        try store.commit(try store.softDeletion(of: [second]))
        #expect(store.check().isEmpty)
    }

    @Test func missingOrNullUniqueValuesAreUniqueToThemselvesAsInAnUpsert() throws {
        let schema: JSONValue = [
            "entities": [
                "Badge": ["properties": [["name": "code", "type": "String", "optional": true]], "unique": [["code"]]]
            ]
        ]
        let store = try DocumentStore.create(
            at: folder("badges"), manifest: StoreManifest(timeZone: TimeZone(identifier: "UTC")!, schema: schema),
            durability: .none)
        for values: JSONObject in [["code": .null], ["code": .null], [:], [:], ["code": "A"]] {
            var document = try store.newDocument(entity: "Badge", values: values)
            // Left out: a member the document does not have at all.
            if values.isEmpty { document.content.removeValue(forKey: "code") }
            try store.commit([.put(document, basedOn: nil)])
        }
        #expect(store.check().isEmpty)
        try store.commit([.put(try store.newDocument(entity: "Badge", values: ["code": "A"]), basedOn: nil)])
        #expect(store.check().map(\.message).allSatisfy { $0.hasPrefix("\"code\" \"A\" is also held by Badge/") })
        #expect(store.check().count == 1)
    }

    @Test func aDenyRuleRefusesTheSoftDeleteWhileRelatedDocumentsRemain() throws {
        let tag = try insert("Tag", ["name": "home"])
        _ = try insert(
            "Note", ["title": "Tea", "written": "2026-11-22T09:30:00Z", "tags": [.string(tag.id.uuidString)]])
        let current = try #require(store.document(entity: "Tag", id: tag.id))
        #expect(throws: FolioError.deleteDenied(model: "Tag \(tag.id)", relationship: "notes", relatedCount: 1)) {
            try store.softDeletion(of: [current])
        }
    }

    @Test func newDocumentsFollowTheSchemasOrderAndRefuseUnknownNames() throws {
        let note = try insert("Note", ["written": "2026-11-22T09:30:00Z", "title": "Tea"])
        #expect(note.content.keys == ["$entity", "$version", "$id", "title", "written", "tags"])
        #expect(note.path.relativePath.hasPrefix("Note/2026/11/22/"))
        #expect(throws: FolioError.self) { try store.newDocument(entity: "Note", values: ["titel": "Tea"]) }
        #expect(throws: FolioError.self) { try store.newDocument(entity: "Note", values: ["title": "Tea"]) }
    }

    @Test func findingsReadLikeCompilerDiagnostics() {
        let finding = StoreFinding(.error, path: "Note/2026/11/22/X.json", line: 4, column: 3, message: "what")
        #expect(finding.description == "Note/2026/11/22/X.json:4:3: error: what")
        #expect(StoreFinding(.note, path: "a.json", message: "m").description == "a.json: note: m")
    }

    @Test func aUniqueListNamingNoPropertyConstrainsNothing() throws {
        // Found by Fuzz/manifest-fuzzer: an empty list among an entity's "unique" lists made
        // every document a duplicate of the first, and `check()` trapped naming its property.
        let folder = try TemporaryDirectory()
        let schema: JSONValue = [
            "entities": [
                "Memo": [
                    "properties": [["name": "title", "type": "String"]], "unique": [[], [1], ["title"]],
                    "indices": [[]],
                ]
            ]
        ]
        let store = try DocumentStore.create(
            at: folder("memos"), manifest: StoreManifest(timeZone: TimeZone(identifier: "UTC")!, schema: schema),
            durability: .none)
        try store.commit([
            .put(try store.newDocument(entity: "Memo", values: ["title": "Tea"]), basedOn: nil),
            .put(try store.newDocument(entity: "Memo", values: ["title": "Coffee"]), basedOn: nil),
        ])
        // `check` says so, as notes: nothing is wrong with the documents.
        #expect(store.check().map(\.severity) == [.note, .note, .note])
        #expect(
            try store.query(DocumentQuery(entity: "Memo", filter: store.parseQuery(#"title == "Tea""#, entity: "Memo")))
                .total == 1)
    }
}

/// Rules the manifest records beyond the schema, such as OneThing's one entry per day.
struct StoreRulesTests {
    @Test func aUniqueRuleInTheManifestIsCheckedLikeAUniqueConstraint() throws {
        let folder = try TemporaryDirectory()
        let schema: JSONValue = [
            "entities": [
                "DayEntry": [
                    "properties": [
                        ["name": "day", "type": "Date", "options": ["indexed"]],
                        ["name": "taskText", "type": "String"],
                    ]
                ]
            ]
        ]
        var manifest = StoreManifest(timeZone: TimeZone(identifier: "UTC")!, schema: schema)
        manifest.rules = StoreRules(unique: ["DayEntry": [["day"]]])
        let store = try DocumentStore.create(at: folder("days"), manifest: manifest, durability: .none)
        let written = try store.commit([
            .put(
                try store.newDocument(entity: "DayEntry", values: ["day": "2026-10-01T00:00:00Z", "taskText": "Tea"]),
                basedOn: nil),
            .put(
                try store.newDocument(
                    entity: "DayEntry", values: ["day": "2026-10-01T00:00:00Z", "taskText": "Coffee"]), basedOn: nil),
        ])
        #expect(written.written == 2)
        let findings = try DocumentStore.open(at: folder("days")).check()
        #expect(findings.count == 1)
        #expect(
            findings.first?.message.hasPrefix("\"day\" \"2026-10-01T00:00:00Z\" is also held by DayEntry/2026/10/01/")
                == true)
        let text = try String(contentsOfFile: folder("days/folio.json"), encoding: .utf8)
        #expect(
            text.contains(
                "\"rules\": {\n    \"unique\": {\n      \"DayEntry\": [\n        [\n          \"day\"\n        ]\n      ]\n    }\n  },"
            ))
    }

    @Test func aMalformedRuleIsAClearErrorAtOpen() throws {
        let folder = try TemporaryDirectory()
        let store = try DocumentStore.create(
            at: folder("s"), manifest: StoreManifest(timeZone: TimeZone(identifier: "UTC")!), durability: .none)
        var json = try #require(store.manifest.json.objectValue)
        json["rules"] = ["unique": ["DayEntry": ["day"]]]
        try Data(JSONWriter().write(.object(json))).write(to: URL(fileURLWithPath: folder("s/folio.json")))
        #expect(
            throws: FolioError.invalidStore(
                path: folder("s/folio.json"),
                reason: "the manifest's \"rules\" must look like {\"unique\": {\"DayEntry\": [[\"day\"]]}}")
        ) {
            try DocumentStore.open(at: folder("s"))
        }
    }
}

@Model
final class Visit {
    @Attribute(.ephemeral) var openedAt: Date = Date(timeIntervalSince1970: 0)
    var start: Date
    init(start: Date) { self.start = start }
}

/// The tool and `check` file a document under the day the model layer files it under.
struct PartitionAgreementTests {
    @Test func anEphemeralDateDoesNotNameTheFolderForTheModelsOrForCheck() throws {
        let folder = try TemporaryDirectory()
        var configuration = ModelConfiguration(url: folder.url, durability: .none)
        configuration.timeZone = TimeZone(identifier: "UTC")
        let context = ModelContext(try ModelContainer(for: Visit.self, configurations: configuration))
        context.insert(Visit(start: Date(timeIntervalSince1970: 1_793_529_000)))  // 2026-11-01
        try context.save()
        let store = try DocumentStore.open(at: folder.path, durability: .none)
        #expect(store.documents(entity: "Visit").map(\.path.day.description) == ["2026-11-01"])
        #expect(store.check().filter { $0.severity == .error }.isEmpty, "\(store.check())")
        let inserted = try store.newDocument(
            entity: "Visit", values: ["start": "2026-12-24T10:00:00Z", "openedAt": "2020-01-01T00:00:00Z"])
        #expect(inserted.partitionDate == Date(timeIntervalSince1970: 1_798_106_400))
    }
}

import FolioTestSupport
import Foundation
import Testing

/// The writing commands hold unique values as `check` does: a write that would give a
/// document a value another one holds is refused, naming that one, and writes nothing;
/// `insert --upsert` replaces that one instead, as SwiftData's insert does.
struct UniqueWriteTests {
    /// A store of tags whose names are unique (an `.unique` attribute, as a hand-written
    /// schema gives it) and of slots unique by day and hour together (`#Unique`).
    struct Tags {
        let folder: TemporaryDirectory
        let folio: FolioTool
        var root: String { folder("Tags") }

        init() throws {
            folder = try TemporaryDirectory()
            _ = try folder.create(
                "schema.json",
                contents: Array(
                    #"""
                    {"entities": {
                      "Tag": {"properties": [{"name": "name", "type": "String", "options": ["unique"]},
                        {"name": "colour", "type": "String", "optional": true},
                        {"name": "code", "type": "String", "optional": true, "options": ["unique"]}]},
                      "Slot": {"properties": [{"name": "day", "type": "String"}, {"name": "hour", "type": "Int"},
                        {"name": "note", "type": "String", "optional": true}], "unique": [["day", "hour"]]}
                    }}
                    """#.utf8))
            let created = try FolioTool(folder: folder.path)(
                "init", "Tags", "--schema", "schema.json", "--time-zone", "UTC")
            guard created.status == 0 else { throw StoreSetupError(run: created) }
            folio = FolioTool(folder: folder("Tags"))
        }

        /// Inserts a tag and returns its identity and path.
        @discardableResult
        func tag(_ name: String, colour: String = "red", code: String? = nil) throws -> (id: String, path: String) {
            let run = try folio.run(
                ["insert", "Tag", "name=\(name)", "colour=\(colour)"] + (code.map { ["code=\($0)"] } ?? []))
            guard run.status == 0 else { throw StoreSetupError(run: run) }
            let path = run.output.trimmingCharacters(in: .newlines)
            return (String(path.split(separator: "/").last!.dropLast(".json".count)), path)
        }

        /// The stored documents of an entity, one NDJSON line each, in path order.
        func documents(_ entity: String) throws -> [String] {
            try folio("query", entity, "--format", "ndjson").output.split(separator: "\n").map(String.init)
        }

        /// The identities of the tags a query matches.
        func ids(_ query: String) throws -> [String] {
            try folio("query", "Tag", query, "--fields", "id", "--format", "csv").output.split(separator: "\n")
                .dropFirst()
                .map(String.init)
        }
    }

    @Test func insertRefusesAUniqueValueAnotherDocumentHoldsNamingItsIdentityAndFile() throws {
        let store = try Tags()
        let (home, path) = try store.tag("home")
        let second = try store.folio("insert", "Tag", "name=home", "colour=blue")
        #expect(second.status == 65, "\(second.errors)")
        #expect(
            second.errors.contains(
                "a new Tag would hold \"name\" \"home\", which Tag \(home) (\(path)) holds already, but it must be unique; nothing was written"
            ), "\(second.errors)")
        #expect(second.errors.contains("--upsert"))
        #expect(try store.documents("Tag").count == 1)
        #expect(try store.folio("check").status == 0)
        // Another value, and a compound constraint that differs in one of its values, are welcome.
        try store.tag("work")
        #expect(try store.folio("insert", "Slot", "day=mon", "hour=9").status == 0)
        #expect(try store.folio("insert", "Slot", "day=mon", "hour=10").status == 0)
        let slot = try store.folio("insert", "Slot", "day=mon", "hour=9", "note=again")
        #expect(slot.status == 65)
        #expect(slot.errors.contains("would hold (day, hour) = (\"mon\", 9), which Slot "), "\(slot.errors)")
    }

    @Test func insertWithUpsertReplacesTheDocumentHoldingTheValueKeepingItsIdentityAndFile() throws {
        let store = try Tags()
        let (home, path) = try store.tag("home", colour: "red")
        let upserted = try store.folio("insert", "--upsert", "Tag", "name=home", "colour=blue")
        #expect(upserted.status == 0, "\(upserted.errors)")
        #expect(upserted.output == path + "\n")
        #expect(upserted.errors.contains("replaced \(path)"))
        let documents = try store.documents("Tag")
        #expect(documents.count == 1)
        #expect(documents.first?.contains("\"$id\":\"\(home)\"") == true, "\(documents)")
        #expect(documents.first?.contains("\"colour\":\"blue\"") == true, "\(documents)")
        // With nothing to replace, it inserts.
        #expect(try store.folio("insert", "--upsert", "Tag", "name=work").status == 0)
        #expect(try store.documents("Tag").count == 2)
        // An identity other than the one replaced would leave what points at it dangling: refused.
        let other = UUID().uuidString
        let named = try store.folio("insert", "--upsert", "Tag", "name=home", "$id=\(other)")
        #expect(named.status == 65)
        #expect(named.errors.contains("keeps its identity \(home)"), "\(named.errors)")
        // The identity alone is a unique value too: --upsert replaces that document.
        let byIdentity = try store.folio("insert", "--upsert", "Tag", "$id=\(home)", "name=house")
        #expect(byIdentity.status == 0, "\(byIdentity.errors)")
        #expect(try store.folio("count", "Tag", "name == \"house\"").output == "1\n")
        #expect(try store.documents("Tag").count == 2)
        #expect(try store.folio("check").status == 0)
    }

    @Test func insertWithUpsertRefusesWhenTwoDocumentsHoldItsValues() throws {
        let store = try Tags()
        let home = try store.tag("home", code: "H").path
        let work = try store.tag("work", code: "W").path
        let run = try store.folio("insert", "--upsert", "Tag", "name=home", "code=W")
        #expect(run.status == 65)
        #expect(run.errors.contains("--upsert replaces one document, but the new Tag's unique values are held by 2"))
        #expect(run.errors.contains(home) && run.errors.contains(work), "\(run.errors)")
        #expect(try store.documents("Tag").count == 2)
    }

    @Test func setRefusesAUniqueValueAnotherDocumentHoldsButNotAnEditOfAnotherProperty() throws {
        let store = try Tags()
        let (home, path) = try store.tag("home")
        let work = try store.tag("work").id
        let taken = try store.folio("set", work, "name=home")
        #expect(taken.status == 65)
        #expect(
            taken.errors.contains(
                "Tag \(work) would hold \"name\" \"home\", which Tag \(home) (\(path)) holds already"),
            "\(taken.errors)")
        // A query that gives two documents one unique value: each is named.
        try store.tag("play")
        let both = try store.folio("set", "Tag", "name != \"home\"", "name=same")
        #expect(both.status == 65)
        #expect(both.errors.contains("\"name\" \"same\""), "\(both.errors)")
        #expect(try store.folio("count", "Tag", "name == \"same\"").output == "0\n")
        // Setting a document's own value again, or another property, is no clash.
        #expect(try store.folio("set", home, "name=home", "colour=green").status == 0)
        #expect(try store.folio("set", "Tag", "true", "colour=grey").status == 0)
    }

    @Test func editReopensTheDocumentWithTheHolderNamedAndSavesNothing() throws {
        let store = try Tags()
        let home = try store.tag("home").id
        let (work, workPath) = try store.tag("work")
        let before = try Data(contentsOf: URL(fileURLWithPath: store.root + "/" + workPath))
        // The editor takes the name home; reopened with the error, it leaves the text as it is: given up.
        let folio = try store.folio.editing(
            with: """
                cat "$1" >> "$(dirname "$0")/seen"
                sed -i 's/"work"/"home"/' "$1"
                """, in: store.folder)
        let run = try folio("edit", work)
        #expect(run.status == 65, "\(run.errors)")
        #expect(run.errors.contains("which Tag \(home) ("), "\(run.errors)")
        let seen = try String(contentsOfFile: store.folder("seen"), encoding: .utf8)
        #expect(seen.contains("// error: Tag \(work) would hold \"name\" \"home\""), "\(seen)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.root + "/" + workPath)) == before)
    }

    @Test func importNamesEveryRecordThatWouldShareAUniqueValueAndWritesNothing() throws {
        let store = try Tags()
        let (home, path) = try store.tag("home")
        let input = [
            #"{"name": "a"}"#, #"{"name": "home"}"#, #"{"name": "a"}"#, #"{"name": "b"}"#, "",
            #"{"name": "b", "colour": "blue"}"#, #"{"name": "c"}"#,
        ].joined(separator: "\n")
        _ = try store.folder.create("tags.ndjson", contents: Array((input + "\n").utf8))
        let run = try store.folio("import", "Tag", "../tags.ndjson")
        #expect(run.status == 65, "\(run.errors)")
        #expect(
            run.errors.contains("3 values must be unique but other documents hold them, so nothing was imported"),
            "\(run.errors)")
        #expect(run.errors.contains("../tags.ndjson:2: \"name\" \"home\", held by Tag \(home) (\(path)) too"))
        #expect(run.errors.contains("../tags.ndjson:3: \"name\" \"a\", held by ../tags.ndjson:1 too"))
        #expect(run.errors.contains("../tags.ndjson:6: \"name\" \"b\", held by ../tags.ndjson:4 too"))
        #expect(!run.errors.contains("tags.ndjson:7"))
        #expect(try store.documents("Tag").count == 1)
        #expect(try store.folio("check").status == 0)
    }

    @Test func importMaySwapTheUniqueValuesOfDocumentsItUpdates() throws {
        let store = try Tags()
        let home = try store.tag("home").id
        let work = try store.tag("work").id
        let input = #"{"$id": "\#(home)", "name": "work"}"# + "\n" + #"{"$id": "\#(work)", "name": "home"}"# + "\n"
        let run = try store.folio("import", "Tag", "-", "--format", "ndjson", input: input)
        #expect(run.status == 0, "\(run.errors)")
        #expect(try store.ids("name == \"work\"") == [home])
        #expect(try store.ids("name == \"home\"") == [work])
        #expect(try store.folio("check").status == 0)
    }

    @Test func restoreRefusesADocumentWhoseUniqueValueAnotherTookMeanwhile() throws {
        let store = try Tags()
        let old = try store.tag("home").id
        #expect(try store.folio("delete", old).status == 0)
        // A soft-deleted document holds no value: a new one may take it.
        let (new, path) = try store.tag("home")
        let run = try store.folio("restore", old)
        #expect(run.status == 65, "\(run.errors)")
        #expect(run.errors.contains("Tag \(old) would hold \"name\" \"home\", which Tag \(new) (\(path))"))
        #expect(try store.folio("count", "Tag").output == "1\n")
        #expect(try store.folio("check").status == 0)
    }

    @Test func twoProcessesInsertingOneUniqueValueAtOnceStoreItOnce() throws {
        let store = try Tags()
        try store.tag("seed")  // the history's first record, so each insert checks against a token
        let values = (0..<20).map { "tag\($0)" }
        let outcomes = LockedList()
        // Two processes per value, started together: the second to commit sees the first's tag.
        for value in values {
            DispatchQueue.concurrentPerform(iterations: 2) { _ in
                do {
                    let run = try store.folio("insert", "Tag", "name=\(value)")
                    outcomes.append("\(value) \(run.status)")
                    if run.status != 0 && run.status != 65 { outcomes.append("\(value) failed: \(run.errors)") }
                } catch {
                    outcomes.append("\(value) failed: \(error)")
                }
            }
        }
        #expect(!outcomes.items.contains { $0.contains("failed") }, "\(outcomes.items)")
        for value in values {
            #expect(outcomes.items.filter { $0 == "\(value) 0" }.count == 1, "\(value): \(outcomes.items)")
            #expect(outcomes.items.filter { $0 == "\(value) 65" }.count == 1, "\(value): \(outcomes.items)")
        }
        #expect(try store.folio("count", "Tag").output == "\(values.count + 1)\n")
        #expect(try store.folio("check").status == 0)
    }
}

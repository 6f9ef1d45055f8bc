import FolioTestSupport
import Foundation
import Testing

/// An enum's cases, as `folio.json` records them, bound every way a value gets into a store.
struct EnumCaseTests {
    /// A store whose Workout has a `kind` (a `CaseIterable` enum), an optional `surface`,
    /// and `gear`, an array of another enum.
    struct WorkoutStore {
        let folder: TemporaryDirectory
        let folio: FolioTool
        let id: String

        init() throws {
            folder = try TemporaryDirectory()
            _ = try folder.create(
                "schema.json",
                contents: Array(
                    """
                    {"entities": {"Workout": {"properties": [
                      {"name": "id", "type": "UUID"},
                      {"name": "start", "type": "Date"},
                      {"name": "kind", "type": "Kind", "cases": ["run", "ride", "row"]},
                      {"name": "surface", "type": "Surface", "optional": true, "cases": [1, 2]},
                      {"name": "gear", "type": "Array<Gear>", "cases": ["shoes", "bike"]}
                    ]}}}
                    """.utf8))
            let created = try FolioTool(folder: folder.path)(
                "init", "Gym", "--time-zone", "UTC", "--schema", "schema.json")
            guard created.status == 0 else { throw StoreSetupError(run: created) }
            folio = FolioTool(folder: folder("Gym"))
            let inserted = try folio(
                "insert", "Workout", "start=2026-11-03T07:00:00Z", "kind=run", "surface=2", "gear:=[\"shoes\"]")
            guard inserted.status == 0 else { throw StoreSetupError(run: inserted) }
            id = String(inserted.output.split(separator: "/").last?.prefix(36) ?? "")
        }

        var documentPath: String { folder("Gym/Workout/2026/11/03/\(id).json") }
    }

    @Test func insertAndSetRefuseAValueThatIsNotACaseAndListTheCases() throws {
        let store = try WorkoutStore()
        let swim = try store.folio("insert", "Workout", "start=2026-11-04T07:00:00Z", "kind=swim", "gear:=[]")
        #expect(swim.status == 65)
        #expect(
            swim.errors.contains(#""kind" is not a valid Kind: "swim" is not one of its cases: "run", "ride", "row""#),
            "\(swim.errors)")
        let gear = try store.folio("set", store.id, #"gear:=["shoes", "skis"]"#)
        #expect(gear.status == 65)
        #expect(gear.errors.contains(#"element 1: "skis" is not one of its cases: "shoes", "bike""#), "\(gear.errors)")
        let surface = try store.folio("set", store.id, "surface=3")
        #expect(surface.status == 65)
        #expect(try store.folio("count", "Workout").output.hasPrefix("1"))
        let before = try String(contentsOfFile: store.documentPath, encoding: .utf8)
        #expect(before.contains(#""kind": "run""#) && before.contains(#""surface": 2"#))
        #expect(try store.folio("set", store.id, "kind=row", "surface=null").status == 0)
    }

    @Test func importRefusesARecordWithAnUnknownCase() throws {
        let store = try WorkoutStore()
        _ = try store.folder.create(
            "more.ndjson",
            contents: Array(
                """
                {"start": "2026-11-05T07:00:00Z", "kind": "ride", "gear": ["bike"]}
                {"start": "2026-11-06T07:00:00Z", "kind": "Ride", "gear": []}

                """.utf8))
        let run = try store.folio("import", "Workout", "../more.ndjson")
        #expect(run.status == 65)
        #expect(run.errors.contains(#""Ride" is not one of its cases"#), "\(run.errors)")
        #expect(try store.folio("count", "Workout").output.hasPrefix("1"))
    }

    @Test func anEditToAnUnknownCaseReopensAndCheckReportsAHandEdit() throws {
        let store = try WorkoutStore()
        let editing = try store.folio.editing(
            with: """
                log="$(dirname "$0")/editor.log"
                echo run >> "$log"
                if [ "$(wc -l < "$log")" -eq 1 ]; then
                  sed -i 's/"kind": "run"/"kind": "swim"/' "$1"
                else
                  grep -v '^//' "$1" | sed 's/"swim"/"row"/' > "$1.new" && mv "$1.new" "$1"
                fi
                """, in: store.folder)
        let edit = try editing("edit", store.id)
        #expect(edit.status == 0, "\(edit.errors)")
        #expect(edit.errors.contains(#""swim" is not one of its cases"#), "\(edit.errors)")
        #expect(try String(contentsOfFile: store.documentPath, encoding: .utf8).contains(#""kind": "row""#))

        let text = try String(contentsOfFile: store.documentPath, encoding: .utf8)
        try text.replacingOccurrences(of: #""kind": "row""#, with: #""kind": "swim""#).write(
            toFile: store.documentPath, atomically: true, encoding: .utf8)
        let check = try store.folio("check")
        #expect(check.status == 1)
        #expect(
            check.output.contains(
                #"error: "kind" is not a valid Kind: "swim" is not one of its cases: "run", "ride", "row""#),
            "\(check.output)")
    }

    @Test func aQueryForAValueThatIsNotACaseIsAnErrorThatListsTheCases() throws {
        let store = try WorkoutStore()
        let typo = try store.folio("count", "Workout", #"kind == "Run""#)
        #expect(typo.status == 65)
        #expect(
            typo.errors.contains(#""Run" is not a case of Kind, the type of kind; its cases are "run", "ride", "row""#),
            "\(typo.errors)")
        #expect(try store.folio("count", "Workout", "surface == 3").status == 65)
        #expect(try store.folio("count", "Workout", #"kind == "run" && surface == 2"#).output.hasPrefix("1"))
    }

    @Test func checkReportsCasesAndCountsInTheManifestThatAreNotLists() throws {
        let store = try WorkoutStore()
        let manifest = store.folder("Gym/folio.json")
        let text = try String(contentsOfFile: manifest, encoding: .utf8)
        let broken = text.replacingOccurrences(
            of: #""type": "Kind","#, with: #""type": "Kind", "minimumModelCount": -1,"#
        )
        .replacing(#/"cases": \[\s*"run",\s*"ride",\s*"row"\s*\]/#, with: #""cases": "run""#)
        #expect(broken != text)
        try broken.write(toFile: manifest, atomically: true, encoding: .utf8)
        let check = try store.folio("check")
        #expect(check.status == 1)
        #expect(
            check.output.contains(
                #/folio\.json:\d+:\d+: error: the schema's "cases" of Workout\.kind is "run", not a list/#),
            "\(check.output)")
        #expect(
            // A count belongs to a to-many relationship, not to an attribute.
            check.output.contains(#"error: attribute Workout.kind has no key "minimumModelCount""#),
            "\(check.output)")
    }
}

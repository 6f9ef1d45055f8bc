import FolioTestSupport
import Foundation
import Testing

/// The tool on a store whose models inherit from each other: a subclass's documents
/// are in its hierarchy's root folder, and the tool names them by their own entity.
struct InheritanceCommandTests {
    static let schema = """
        {"entities": {
          "Trip": {"properties": [
            {"name": "name", "type": "String"},
            {"name": "start", "type": "Date"}
          ]},
          "BusinessTrip": {"superentity": "Trip", "properties": [
            {"name": "name", "type": "String"},
            {"name": "start", "type": "Date"},
            {"name": "perDiem", "type": "Double"}
          ]}
        }}
        """

    let folder: TemporaryDirectory
    let folio: FolioTool

    init() throws {
        folder = try TemporaryDirectory()
        _ = try folder.create("schema.json", contents: Array(Self.schema.utf8))
        let created = try FolioTool(folder: folder.path)(
            "init", "Trips", "--time-zone", "UTC", "--schema", "schema.json")
        guard created.status == 0 else { throw StoreSetupError(run: created) }
        folio = FolioTool(folder: folder("Trips"))
    }

    @Test func insertPutsASubclassDocumentInItsRootsFolderAndQueriesFindItByEitherEntity() throws {
        #expect(!FileManager.default.fileExists(atPath: folder("Trips") + "/BusinessTrip"))
        let business = try folio("insert", "BusinessTrip", "name=Summit", "start=2026-11-02T09:00:00Z", "perDiem=80")
        #expect(business.status == 0, "\(business.errors)")
        #expect(business.output.hasPrefix("Trip/2026/11/02/"))
        let text = try String(
            contentsOfFile: folder("Trips") + "/" + business.output.trimmingCharacters(in: .newlines), encoding: .utf8)
        #expect(text.contains("\"$entity\": \"BusinessTrip\""))
        #expect(try folio("insert", "Trip", "name=Weekend", "start=2026-11-01T09:00:00Z").status == 0)
        #expect(try folio("count", "Trip").output == "2\n")
        #expect(try folio("count", "BusinessTrip").output == "1\n")
        #expect(
            try folio("query", "Trip", "perDiem > 50", "--fields", "name", "--format", "csv").output == "name\nSummit\n"
        )
        #expect(
            try folio("query", "BusinessTrip", "--fields", "name,perDiem", "--format", "csv").output
                == "name,perDiem\nSummit,80\n")
        // A subclass's property is required of its documents, not of the root's.
        let missing = try folio("insert", "BusinessTrip", "name=Expo", "start=2026-11-03T09:00:00Z")
        #expect(missing.status == 65)
        #expect(missing.errors.contains("perDiem"))
        let check = try folio("check")
        #expect(check.status == 0, "\(check.output)\(check.errors)")
    }

    @Test func checkReportsASuperentityTheSchemaLacks() throws {
        let manifest = folder("Trips") + "/folio.json"
        let text = try String(contentsOfFile: manifest, encoding: .utf8)
        try text.replacingOccurrences(of: "\"superentity\": \"Trip\"", with: "\"superentity\": \"Tirp\"").write(
            toFile: manifest, atomically: true, encoding: .utf8)
        let check = try folio("check")
        #expect(check.status != 0)
        #expect(
            check.output.contains(
                "folio.json:21:9: error: BusinessTrip inherits from \"Tirp\", which is not one of the schema's entities; did you mean Trip?"
            ))
    }
}

import FolioJSON
import FolioTestSupport
import Foundation
import Testing

/// `folio log`, `diff`, `blame` and `restore` on a record whose `.externalStorage` file
/// changed alone: the file beside the document is the property's value, shown by size and
/// git's id.
struct ExternalStorageLogTests {
    static let schema = """
        {"entities": {"Photo": {"properties": [
          {"name": "id", "type": "UUID", "options": ["unique"]},
          {"name": "title", "type": "String"},
          {"name": "image", "type": "Data", "optional": true, "options": ["externalStorage"]}
        ], "unique": [["id"]]}}}
        """

    /// The rows a reading command prints as NDJSON.
    static func rows(_ run: FolioTool.Run) throws -> [JSONObject] {
        try #require(run.status == 0, "\(run.errors)")
        return try run.output.split(separator: "\n").map { line in
            try #require(try JSONReader().read(String(line)).objectValue)
        }
    }

    @Test func aChangedImageFileIsAChangeOfItsPropertyInLogDiffBlameAndRestore() throws {
        let folder = try TemporaryDirectory()
        _ = try folder.create("schema.json", contents: Array(Self.schema.utf8))
        try FileManager.default.createDirectory(atPath: folder("home"), withIntermediateDirectories: true)
        #expect(try FolioTool(folder: folder.path)("init", "Photos", "--schema", "schema.json").status == 0)
        var folio = FolioTool(folder: folder("Photos"))
        folio.environment = GitClone.environment(home: folder("home"))
        let git = GitClone(path: folder("Photos"), environment: folio.environment)
        #expect(try folio("insert", "Photo", "title=Beach").status == 0)
        let listed = try folio("query", "Photo", "--fields", "id,path", "--format", "csv").output
        let fields = try #require(listed.split(separator: "\n").last?.split(separator: ","))
        let (id, path) = (String(fields[0]), String(fields[1]))
        let image = folder("Photos/" + path.dropLast(".json".count) + ".image.bin")
        try Data("small".utf8).write(to: URL(fileURLWithPath: image))
        try git.git("init", "-q", "--initial-branch=main", ".")
        try git.git("add", "--all")
        try git.git("commit", "-q", "-m", "a photo")
        try Data("a larger picture".utf8).write(to: URL(fileURLWithPath: image))
        try git.git("commit", "-q", "-a", "-m", "a new image")
        let old = try git.git("rev-parse", "HEAD~1:" + path.dropLast(".json".count) + ".image.bin")
        let new = try git.git("rev-parse", "HEAD:" + path.dropLast(".json".count) + ".image.bin")
        let state = try git.git("status", "--porcelain", "--ignored")

        let log = try Self.rows(folio("log", id, "--format", "ndjson"))
        #expect(log.first?["change"] == .string("changed"))
        #expect(Set(log.dropFirst().map { $0["change"]?.stringValue }) == ["created"], "\(log)")
        #expect(log.first?["property"] == .string("image"))
        #expect(log.first?["old"] == .object(["object": .string(old.trimmed), "bytes": .integer(5)]))
        #expect(log.first?["new"] == .object(["object": .string(new.trimmed), "bytes": .integer(16)]))
        #expect(log.last?["property"] == .string("image"), "the creation sets the image too: \(log)")

        let diff = try Self.rows(folio("diff", "HEAD~1", "HEAD", "--format", "ndjson"))
        #expect(diff.map { $0["property"]?.stringValue } == ["image"])
        #expect(diff.first?["id"] == .string(id))
        #expect(diff.first?["path"] == .string(path), "the record's document, not the image file")
        let table = try folio("diff", "HEAD~1", "HEAD")
        #expect(table.output.contains("5 bytes (\(old.prefix(7)))"), "\(table.output)")
        #expect(table.output.contains("16 bytes (\(new.prefix(7)))"), "\(table.output)")

        let blame = try Self.rows(folio("blame", id, "--format", "ndjson"))
        let imageRow = try #require(blame.first { $0["property"] == .string("image") })
        #expect(imageRow["commit"] == .string(try git.git("rev-parse", "HEAD").trimmed))
        #expect(blame.first { $0["property"] == .string("title") }?["subject"] == .string("a photo"))
        #expect(try git.git("status", "--porcelain", "--ignored") == state, "reading wrote nothing")

        let restored = try folio("restore", id, "--from", "HEAD~1", "--property", "image")
        #expect(restored.status == 0, "\(restored.errors)")
        #expect(restored.output.contains("16 bytes") && restored.output.contains("5 bytes"), "\(restored.output)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: image)) == Data("small".utf8))
    }
}

extension String {
    /// The text without the line end git prints after it.
    fileprivate var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}

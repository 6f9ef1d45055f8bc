import FolioJSON
import FolioTestSupport
import Foundation
import Testing

/// `folio export --format csv` then `folio import` into a fresh store with the same schema
/// gives back every document file byte for byte, whatever the values; what a CSV cannot
/// carry stops the export, naming the document and the column, instead of changing it.
struct CSVRoundTripTests {
    /// Every type Folio stores, optional or not, relationships of both kinds, and an entity
    /// without its own `id` (named by `"$id"`).
    static let schema = """
        {"entities": {
          "Target": {"properties": [
            {"name": "id", "type": "UUID", "options": ["unique"]},
            {"name": "name", "type": "String"},
            {"name": "made", "type": "Date"},
            {"name": "samples", "destination": "Sample", "toMany": true, "deleteRule": "nullify", "inverse": "target"}
          ], "unique": [["id"]]},
          "Sample": {"properties": [
            {"name": "text", "type": "String"},
            {"name": "note", "type": "String", "optional": true},
            {"name": "count", "type": "Int"},
            {"name": "small", "type": "Int16", "optional": true},
            {"name": "big", "type": "UInt64", "optional": true},
            {"name": "ratio", "type": "Double"},
            {"name": "single", "type": "Float", "optional": true},
            {"name": "amount", "type": "Decimal", "optional": true},
            {"name": "flag", "type": "Bool"},
            {"name": "maybe", "type": "Bool", "optional": true},
            {"name": "at", "type": "Date"},
            {"name": "due", "type": "Date", "optional": true},
            {"name": "key", "type": "UUID", "optional": true},
            {"name": "link", "type": "URL", "optional": true},
            {"name": "bytes", "type": "Data", "optional": true},
            {"name": "photo", "type": "Data", "optional": true, "options": ["externalStorage"]},
            {"name": "tint", "type": "Color", "optional": true, "transformer": "ColorTransformer"},
            {"name": "words", "type": "Array<String>"},
            {"name": "scores", "type": "Dictionary<String, Int>", "optional": true},
            {"name": "mood", "type": "Mood", "optional": true, "cases": ["calm", "5", "null", "(absent)", "'quoted", "=sum"]},
            {"name": "shape", "type": "Shape", "optional": true},
            {"name": "target", "destination": "Target", "toMany": false, "deleteRule": "nullify", "inverse": "samples", "optional": true},
            {"name": "targets", "destination": "Target", "toMany": true, "deleteRule": "nullify"}
          ]}
        }}
        """

    static let first = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
    static let second = "0F3C5D2A-7B1E-4C9D-8A6F-2E4B7C1D9A03"

    /// One row of the table: a document that is the base one with `member` set to `value`,
    /// or without it when `value` is `nil`.
    struct Case: Sendable {
        var member: String
        var value: JSONValue?
        /// The folder of the document's day.
        var day = "2026/11/22"
    }

    /// The values, by member: each makes one document.
    static let cases: [Case] = {
        var cases: [Case] = []
        func add(_ member: String, _ values: [JSONValue?]) {
            cases += values.map { Case(member: member, value: $0) }
        }
        add(
            "text",
            [
                "", "plain", "a,b", "say \"hi\"", "\"", "\"\"", "line\nbreak", "crlf\r\nend", "cr\ronly", "ends with\r",
                "\n", "  padded  ", " ", "\ttab", "5", "-5", "007", "1e5", "-0", "true", "false", "null", "[1]",
                "{\"a\": 1}", "(absent)", "'", "''", "'quoted", "''twice", "'=x", "=SUM(A1)", "+1", "@me", "-",
                "e\u{301},\u{301}x", ",\u{301}", "\"\u{301}", "\u{0}nul", "\u{7F}\u{1B}[2J", "emoji 👩‍👩‍👧",
                "\u{FEFF}mark", "\u{202E}right", "2026-11-22T09:30:00Z", "NaN",
            ])
        add("note", [nil, .null, "", "null", "(absent)", "'", "x", " ", "'(absent)"])
        add("count", [.integer(Int64.min), .integer(Int64.max), 0, -1])
        add("small", [nil, .null, .integer(-32768)])
        add("big", [.number("18446744073709551615"), nil])
        add(
            "ratio",
            [
                .double(-0.0), .double(1e300), .double(.leastNonzeroMagnitude), .double(0.1), "NaN", "Infinity",
                "-Infinity",
            ])
        add("single", [.double(0.1), nil])
        add("amount", [.number("0.10000000000000000001"), .integer(123), "NaN", .null])
        add("flag", [false])
        add("maybe", [nil, .null, true])
        cases += [
            Case(member: "at", value: "2026-11-22T09:30:00.25Z"),
            Case(member: "at", value: "2026-11-22T10:30:00+01:00"),
            Case(member: "at", value: "2026-11-23t09:30:00z", day: "2026/11/23"),
        ]
        add(
            "due",
            [
                nil, .null, "1500-06-15T12:00:00Z", "0001-01-01T00:00:00Z", .double(1e300), .integer(-100_000_000_000),
                "NaN", "-Infinity",
            ])
        add("key", [.string(first), .string(first.lowercased()), .null])
        add("link", ["https://example.com/a?b=c,d", "-relative", .null])
        add("bytes", ["MTIz", "1234", "+/+/", "", "bnVsbA==", .null])
        add("tint", ["AAEC", .null])
        add("words", [[], ["a", "b,c", "say \"hi\"", "null", ""]])
        add("scores", [["b": 1, "a": 2], [:], nil])
        add("mood", ["calm", "5", "null", "(absent)", "'quoted", "=sum", .null, nil])
        add(
            "shape",
            [
                [
                    "kind": "circle", "r": .number("1e400"), "z": .number("-0"), "w": .double(-0.0),
                    "nested": [1, ["a": nil], "é", .number("123456789012345678901234567890")],
                ],
                "just text", "5", "", 5, [], "'", "(absent)",
            ])
        add("target", [.string(first), .null, nil])
        add("targets", [[.string(first), .string(second)], nil])
        add("legacy", ["old", .null, "", "5", 5, [.number("1e400"), .number("-0")]])
        add("weird, \"key\"\n", ["x"])
        add("$deleted", ["2026-11-23T08:00:00Z"])
        return cases
    }()

    /// The members of a new Sample, as the tool writes them.
    static let base: JSONObject = [
        "text": "base", "note": nil, "count": 1, "small": nil, "big": nil, "ratio": 1.5, "single": nil, "amount": nil,
        "flag": true, "maybe": nil, "at": "2026-11-22T09:30:00Z", "due": nil, "key": nil, "link": nil, "bytes": nil,
        "tint": nil, "words": [], "scores": nil, "mood": nil, "shape": nil, "target": nil, "targets": [],
    ]

    /// The document of a case: metadata, the base members in declaration order with the
    /// case's member set or removed; a member the schema does not know goes last.
    static func document(_ testCase: Case, id: String, version: String) -> JSONObject {
        var content: JSONObject = ["$entity": "Sample", "$version": .string(version), "$id": .string(id)]
        if testCase.member == "$deleted", let value = testCase.value { content["$deleted"] = value }
        for member in base {
            if member.key == testCase.member {
                if let value = testCase.value { content[member.key] = value }
            } else {
                content[member.key] = member.value
            }
        }
        if base[testCase.member] == nil, !testCase.member.hasPrefix("$"), let value = testCase.value {
            content[testCase.member] = value
        }
        return content
    }

    @Test func everyStoredValueComesBackFromACSVRoundTripByteForByte() throws {
        let folder = try TemporaryDirectory()
        let original = try HandWrittenStore(named: "Original", schema: Self.schema, in: folder)
        try original.write(
            [
                "$entity": "Target", "$version": .string(original.version), "id": .string(Self.first), "name": "One",
                "made": "2026-11-01T10:00:00Z",
            ],
            at: "Target/2026/11/01/\(Self.first).json")
        try original.write(
            [
                "$entity": "Target", "$version": .string(original.version), "id": .string(Self.second), "name": "Two",
                "made": "2026-11-02T10:00:00Z",
            ],
            at: "Target/2026/11/02/\(Self.second).json")
        var rows: [String: Case] = [:]
        for testCase in Self.cases {
            let id = UUID().uuidString
            rows[id] = testCase
            try original.write(
                Self.document(testCase, id: id, version: original.version),
                at: "Sample/\(testCase.day)/\(id).json")
        }
        let check = try original.folio("check")
        #expect(check.status == 0, "the table's documents fit the schema: \(check.output)\(check.errors)")

        let targets = try original.folio("export", "Target", "--format", "csv")
        let samples = try original.folio("export", "Sample", "--format", "csv", "--include-deleted")
        #expect(targets.status == 0, "\(targets.errors)")
        #expect(samples.status == 0, "\(samples.errors)")
        #expect(samples.errors.isEmpty, "\(samples.errors)")

        let copy = try HandWrittenStore(named: "Copy", schema: Self.schema, in: folder)
        _ = try folder.create("targets.csv", contents: Array(targets.output.utf8))
        _ = try folder.create("samples.csv", contents: Array(samples.output.utf8))
        let importedTargets = try copy.folio("import", "Target", "../targets.csv")
        #expect(importedTargets.status == 0, "\(importedTargets.errors)")
        let importedSamples = try copy.folio("import", "Sample", "../samples.csv")
        #expect(importedSamples.status == 0, "\(importedSamples.errors)")
        #expect(importedSamples.output == "\(Self.cases.count) records: \(Self.cases.count) written, 0 unchanged\n")

        let before = try original.documentFiles()
        let after = try copy.documentFiles()
        #expect(Set(after.keys) == Set(before.keys), "the same documents in the same folders")
        for (path, bytes) in before.sorted(by: { $0.key < $1.key }) {
            let id = String(path.split(separator: "/").last?.dropLast(".json".count) ?? "")
            let row = rows[id].map { "\($0.member) = \($0.value.map(\.description) ?? "(absent)")" } ?? path
            #expect(
                after[path] == bytes,
                "\(row):\n\(String(decoding: bytes, as: UTF8.self))\nbecame\n\(after[path].map { String(decoding: $0, as: UTF8.self) } ?? "nothing")"
            )
        }
        #expect(try copy.folio("check").status == 0)
        // Read into the store the CSV came from, every document is as it was.
        let again = try original.folio("import", "Sample", "../samples.csv")
        #expect(again.output == "\(Self.cases.count) records: 0 written, \(Self.cases.count) unchanged\n")
    }

    @Test func theCSVTellsNullEmptyTextAndAbsenceApartAndMarksTextThatWouldReadOtherwise() throws {
        let folder = try TemporaryDirectory()
        let store = try HandWrittenStore(named: "Store", schema: Self.schema, in: folder)
        let lines: [(value: JSONValue?, member: String, cell: String)] = [
            (.null, "note", ""), ("", "note", "\"\""), (nil, "note", "(absent)"), ("null", "note", "null"),
            ("(absent)", "note", "'(absent)"), ("=SUM(A1)", "note", "'=SUM(A1)"), ("'Tis", "note", "'Tis"),
            ("'=x", "note", "''=x"), ("a,\"b\"", "note", "\"a,\"\"b\"\"\""), (" x", "note", "\" x\""),
            ("5", "mood", "'5"), ("calm", "mood", "calm"), ("null", "mood", "'null"), (.null, "mood", ""),
            ([.number("1e400")], "legacy", "\"{\"\"legacy\"\":[1e400]}\""),
        ]
        var ids: [String] = []
        for line in lines {
            let id = UUID().uuidString
            ids.append(id)
            try store.write(
                Self.document(Case(member: line.member, value: line.value), id: id, version: store.version),
                at: "Sample/2026/11/22/\(id).json")
        }
        let csv = try store.folio("export", "Sample", "--format", "csv")
        #expect(csv.status == 0, "\(csv.errors)")
        let rows = csv.output.split(separator: "\n", omittingEmptySubsequences: false)
        let header = rows.first.map { $0.split(separator: ",").map(String.init) } ?? []
        #expect(header.first == "$id")
        #expect(header.last == "$unknown")
        #expect(!header.contains("photo"), "a blob beside the document is no member")
        for (id, line) in zip(ids, lines) {
            let row = try #require(rows.first { $0.hasPrefix(id + ",") }, "\(id) in \(csv.output)")
            let column = line.member == "legacy" ? "$unknown" : line.member
            let index = try #require(header.firstIndex(of: column))
            // No cell of this table holds a line break, and the cells before the column no comma.
            let cells = Self.cells(of: String(row))
            #expect(
                cells.count == header.count && cells[index] == line.cell,
                "\(line.member) = \(line.value.map(\.description) ?? "(absent)") is written \(line.cell): \(row)")
        }
    }

    @Test func aHandMadeCSVReadsByTheSameConventions() throws {
        let store = try TimerStore()
        let csv = """
            name,durationInSeconds,createdAt,notes
            '=not a formula,60,2026-11-22 09:30,
            'Tis,61,2026-11-22T09:30:00Z,""
            null,62,2026-11-22T09:30:00Z,(absent)
            "two
            lines",63,2026-11-22T09:30:00Z,'(absent)

            """
        let imported = try store.folio("import", "Timer", "-", "--format", "csv", input: csv)
        #expect(imported.status == 0, "\(imported.errors)")
        let rows = try store.folio(
            "query", "Timer", "durationInSeconds < 100", "--sort", "durationInSeconds", "--format", "ndjson")
        let documents = try rows.output.split(separator: "\n").map { try JSONReader().read(String($0)) }
        #expect(documents.map { $0["name"] } == ["=not a formula", "'Tis", "null", "two\nlines"])
        #expect(documents.map { $0["notes"] } == [.null, "", nil, "(absent)"])
        // A day and time without a zone is the store's (Europe/Berlin, an hour ahead of UTC in November).
        #expect(documents.first?["createdAt"] == "2026-11-22T08:30:00Z")
    }

    @Test func aCSVFileThatIsNotWellFormedIsRefusedAndNothingIsWritten() throws {
        let store = try TimerStore()
        let files = [
            "name,durationInSeconds,createdAt\n\"open,60,2026-11-22T09:30:00Z\n":
                "is not closed by the end of the file",
            "name,durationInSeconds,createdAt\n\"a\"b,60,2026-11-22T09:30:00Z\n": "text after its closing quote",
            "name,durationInSeconds,createdAt\nA,(absent),2026-11-22T09:30:00Z\n": "requires it",
            "name,name,createdAt\nA,B,2026-11-22T09:30:00Z\n": "the same column",
        ]
        for (text, message) in files {
            let run = try store.folio("import", "Timer", "-", "--format", "csv", input: text)
            #expect(run.status == 65, "\(text): \(run.errors)")
            #expect(run.errors.contains(message), "\(text): \(run.errors)")
            #expect(try store.folio("count", "Timer").output == "2\n")
        }
    }

    /// What a document may hold that a CSV cannot carry, and the column the export names.
    static let uncarried: [(member: String, value: JSONValue, column: String)] = [
        ("text", 5, "\"text\""),
        ("count", .null, "\"count\""),
        ("key", 5, "\"key\""),
        ("$conflicts", ["count": ["base": 1, "ours": 2, "theirs": 3]], "its merge conflicts"),
        ("$origin", "elsewhere", "\"$origin\""),
        ("photo", "a blob", "\"photo\""),
    ]

    @Test(arguments: uncarried.indices)
    func whatCSVCannotCarryStopsTheExportNamingTheDocumentAndColumnUnlessLossy(index: Int) throws {
        let (member, value, column) = Self.uncarried[index]
        let folder = try TemporaryDirectory()
        let store = try HandWrittenStore(named: "Store", schema: Self.schema, in: folder)
        let fine = UUID().uuidString
        try store.write(
            Self.document(Case(member: "text", value: "fine"), id: fine, version: store.version),
            at: "Sample/2026/11/22/\(fine).json")
        let odd = UUID().uuidString
        var content = Self.document(Case(member: "text", value: "odd"), id: odd, version: store.version)
        if member == "photo" {
            // An external-storage value is a file beside the document.
            try store.write(bytes: [1, 2, 3], at: "Sample/2026/11/22/\(odd).photo.bin")
        } else if member.hasPrefix("$") {
            content.insert(value, forKey: member, at: 3)
        } else {
            content[member] = value
        }
        try store.write(content, at: "Sample/2026/11/22/\(odd).json")

        let refused = try store.folio("export", "Sample", "--format", "csv")
        #expect(refused.status == 65, "\(member): \(refused.output)")
        #expect(refused.output.isEmpty, "nothing is written: \(refused.output)")
        #expect(refused.errors.contains("Sample \(odd): \(column)"), "\(refused.errors)")
        #expect(!refused.errors.contains(fine))
        #expect(refused.errors.contains("--lossy"))

        let lossy = try store.folio("export", "Sample", "--format", "csv", "--lossy")
        #expect(lossy.status == 0, "\(lossy.errors)")
        #expect(lossy.output.split(separator: "\n").count == 3)
        #expect(lossy.errors.contains("warning: Sample \(odd): \(column)"), "\(lossy.errors)")
        // NDJSON carries documents whole, and says nothing.
        let ndjson = try store.folio("export", "Sample")
        #expect(ndjson.status == 0 && ndjson.errors.isEmpty, "\(ndjson.errors)")
    }

    @Test func documentsOfAnInheritingEntityComeBackAsTheirOwnEntity() throws {
        let folder = try TemporaryDirectory()
        let original = try HandWrittenStore(named: "Trips", schema: InheritanceCommandTests.schema, in: folder)
        #expect(
            try original.folio("insert", "BusinessTrip", "name=Summit", "start=2026-11-02T09:00:00Z", "perDiem=80.5")
                .status == 0)
        #expect(try original.folio("insert", "Trip", "name=Weekend", "start=2026-11-01T09:00:00Z").status == 0)
        let csv = try original.folio("export", "Trip", "--format", "csv")
        #expect(csv.status == 0, "\(csv.errors)")
        #expect(csv.output.hasPrefix("$id,name,start,perDiem,$entity\n"), "\(csv.output)")
        let copy = try HandWrittenStore(named: "Copy", schema: InheritanceCommandTests.schema, in: folder)
        let imported = try copy.folio("import", "Trip", "-", "--format", "csv", input: csv.output)
        #expect(imported.status == 0, "\(imported.errors)")
        #expect(try copy.documentFiles() == original.documentFiles())
        #expect(try copy.folio("count", "BusinessTrip").output == "1\n")
    }

    /// The cells of a CSV line whose cells hold no line break.
    static func cells(of line: String) -> [String] {
        var cells: [String] = []
        var cell = ""
        var quoted = false
        for scalar in line.unicodeScalars {
            if scalar == "\"" { quoted.toggle() }
            if scalar == ",", !quoted {
                cells.append(cell)
                cell = ""
            } else {
                cell.unicodeScalars.append(scalar)
            }
        }
        return cells + [cell]
    }
}

/// A store made with `folio init --schema` from an app's manifest (which, unlike a schema
/// written by hand, may name the app's own `Codable` types), whose documents a test writes
/// as files, as a person or another program may.
struct HandWrittenStore {
    let root: String
    /// Runs the tool inside the store.
    let folio: FolioTool
    /// The schema version the store writes into documents.
    let version: String

    init(named name: String, schema: String, in folder: TemporaryDirectory) throws {
        let manifest = """
            {"format": "folio-store", "formatVersion": 1, "schemaVersion": "1.0.0", "timeZone": "UTC", "schema": \(schema)}
            """
        _ = try folder.create(name + ".manifest.json", contents: Array(manifest.utf8))
        let created = try FolioTool(folder: folder.path)(
            "init", name, "--time-zone", "UTC", "--schema", name + ".manifest.json")
        guard created.status == 0 else { throw StoreSetupError(run: created) }
        root = folder(name)
        folio = FolioTool(folder: root)
        let written = try JSONReader().read(Array(try Data(contentsOf: URL(fileURLWithPath: root + "/folio.json"))))
        version = written["schemaVersion"]?.stringValue ?? ""
    }

    /// Writes a document in Folio's canonical form at a path relative to the store.
    func write(_ content: JSONObject, at path: String) throws {
        try write(bytes: try JSONWriter().write(.object(content)), at: path)
    }

    /// Writes a file at a path relative to the store, making its folders.
    func write(bytes: [UInt8], at path: String) throws {
        let url = URL(fileURLWithPath: root + "/" + path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    /// Every document file, by its path relative to the store, with its bytes.
    func documentFiles() throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let path = enumerator?.nextObject() as? String {
            guard path.hasSuffix(".json"), !path.hasPrefix("."), path != "folio.json" else { continue }
            files[path] = Array(try Data(contentsOf: URL(fileURLWithPath: root + "/" + path)))
        }
        return files
    }
}

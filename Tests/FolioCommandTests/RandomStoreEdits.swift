import FolioJSON
import FolioTestSupport
import Foundation

/// A store's documents as files, read and written canonically as Folio would write them,
/// so a test can change hundreds of them without starting the tool each time.
struct StoreFiles {
    let root: String
    /// Every document, by path relative to the store.
    var documents: [String: JSONObject] = [:]

    init(root: String) throws {
        self.root = root
        let listing = FileManager.default.enumerator(atPath: root)
        while let relative = listing?.nextObject() as? String {
            guard relative.hasSuffix(".json"), relative.contains("/"), !relative.hasPrefix(".") else { continue }
            documents[relative] = try JSONReader().read(
                Array(try Data(contentsOf: URL(fileURLWithPath: root + "/" + relative)))
            ).objectValue
        }
    }

    mutating func write(_ content: JSONObject, at relative: String) throws {
        documents[relative] = content
        let url = URL(fileURLWithPath: root + "/" + relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(try JSONWriter().write(.object(content))).write(to: url)
    }

    mutating func remove(_ relative: String) throws {
        documents[relative] = nil
        try FileManager.default.removeItem(atPath: root + "/" + relative)
    }

    /// Paths of an entity's documents, sorted; only live ones with `live`.
    func paths(of entity: String, live: Bool = false) -> [String] {
        documents.filter { $0.value["$entity"]?.stringValue == entity && (!live || $0.value["$deleted"] == nil) }.keys
            .sorted()
    }
}

/// The documents of the sync tests' schema (Timer, TodoItem), canonical, in a UTC store.
enum SyncDocuments {
    static let schema = """
        {"entities": {
          "Timer": {"properties": [
            {"name": "id", "type": "UUID", "options": ["unique"]},
            {"name": "name", "type": "String", "options": ["unique"]},
            {"name": "durationInSeconds", "type": "Int"},
            {"name": "createdAt", "type": "Date"},
            {"name": "todoItems", "destination": "TodoItem", "toMany": true, "deleteRule": "cascade", "inverse": "timer"},
            {"name": "notes", "type": "String", "optional": true}
          ]},
          "TodoItem": {"properties": [
            {"name": "id", "type": "UUID", "options": ["unique"]},
            {"name": "text", "type": "String"},
            {"name": "isCompleted", "type": "Bool"},
            {"name": "createdAt", "type": "Date"},
            {"name": "timer", "destination": "Timer", "toMany": false, "deleteRule": "nullify", "inverse": "todoItems", "optional": true}
          ]}
        }}
        """

    static func timer(id: String, name: String, duration: Int, day: Int) -> (String, JSONObject) {
        (
            "Timer/2026/11/\(twoDigits(day))/\(id).json",
            [
                "$entity": "Timer", "$version": "1.0.0", "id": .string(id), "name": .string(name),
                "durationInSeconds": .integer(Int64(duration)),
                "createdAt": .string("2026-11-\(twoDigits(day))T10:00:00Z"), "notes": .null,
            ]
        )
    }

    static func todo(id: String, text: String, timer: String?, day: Int) -> (String, JSONObject) {
        (
            "TodoItem/2026/11/\(twoDigits(day))/\(id).json",
            [
                "$entity": "TodoItem", "$version": "1.0.0", "id": .string(id), "text": .string(text),
                "isCompleted": false,
                "createdAt": .string("2026-11-\(twoDigits(day))T11:00:00Z"),
                "timer": timer.map(JSONValue.string) ?? .null,
            ]
        )
    }

    static func twoDigits(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }

    /// A UUID made from the generator, so a seed replays the same documents.
    static func uuid(_ random: inout SplitMix64) -> String {
        let (high, low) = (random.next(), random.next())
        let hex = String(format: "%016llX%016llX", high, low)
        let chars = Array(hex)
        func part(_ range: Range<Int>) -> String { String(chars[range]) }
        return "\(part(0..<8))-\(part(8..<12))-4\(part(13..<16))-8\(part(17..<20))-\(part(20..<32))"
    }
}

/// Random edits of one clone's store, seeded: creations, edits of the same and of different
/// properties, edits to the same value, soft deletes (cascading to a timer's to-dos),
/// relationship changes and purges, mostly of the documents both clones started with.
struct RandomStoreEdits {
    var random: SplitMix64
    /// Names the clone's edits, so its values differ from the other clone's.
    let side: String
    /// The documents both clones started with.
    let shared: Set<String>
    /// Documents this clone removed for good.
    var purged: Set<String> = []
    /// How many edits of each kind were made.
    var counts: [String: Int] = [:]

    init(seed: UInt64, side: String, shared: Set<String>) {
        random = SplitMix64(seed: seed)
        self.side = side
        self.shared = shared
    }

    mutating func number(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }

    /// A document of an entity, three times in four one both clones started with.
    mutating func pick(_ entity: String, live: Bool, in files: StoreFiles) -> String? {
        let all = files.paths(of: entity, live: live)
        let common = all.filter(shared.contains)
        let pool = !common.isEmpty && number(4) != 0 ? common : all
        return pool.isEmpty ? nil : pool[number(pool.count)]
    }

    mutating func apply(_ count: Int, to files: inout StoreFiles) throws {
        for step in 0..<count {
            let roll = number(100)
            switch roll {
            case 0..<10:
                // A name from a small shared pool now and then, so both clones may add the same unique value.
                let name = number(4) == 0 ? "Shared \(number(3))" : "\(side) timer \(step)"
                let (path, content) = SyncDocuments.timer(
                    id: SyncDocuments.uuid(&random), name: name, duration: 60 * (1 + number(30)), day: 1 + number(28))
                try files.write(content, at: path)
                counts["create", default: 0] += 1
            case 10..<20:
                let timer = pick("Timer", live: true, in: files).flatMap { files.documents[$0]?["id"]?.stringValue }
                let (path, content) = SyncDocuments.todo(
                    id: SyncDocuments.uuid(&random), text: "\(side) to-do \(step)", timer: timer, day: 1 + number(28))
                try files.write(content, at: path)
                counts["create", default: 0] += 1
            case 20..<45:
                guard let path = pick("Timer", live: false, in: files), var content = files.documents[path] else {
                    continue
                }
                switch number(3) {
                case 0: content["name"] = .string("\(side) renamed \(step)")
                case 1: content["durationInSeconds"] = .integer(Int64([300, 600, 900][number(3)]))
                default:
                    content["notes"] = [JSONValue.null, .string("short"), .string("\(side) note \(step)")][number(3)]
                }
                try files.write(content, at: path)
                counts["edit", default: 0] += 1
            case 45..<62:
                guard let path = pick("TodoItem", live: false, in: files), var content = files.documents[path] else {
                    continue
                }
                if number(2) == 0 {
                    content["text"] = .string("\(side) text \(step)")
                } else {
                    // Both clones ticking the same to-do is the same change, not a conflict.
                    content["isCompleted"] = true
                }
                try files.write(content, at: path)
                counts["edit", default: 0] += 1
            case 62..<72:
                guard let path = pick(number(2) == 0 ? "Timer" : "TodoItem", live: true, in: files) else { continue }
                try softDelete(path, stamp: "2026-11-23T0\(number(10)):00:00Z", in: &files)
                counts["soft delete", default: 0] += 1
            case 72..<88:
                guard let path = pick("TodoItem", live: false, in: files), var content = files.documents[path] else {
                    continue
                }
                let timer =
                    number(5) == 0 ? nil : pick("Timer", live: true, in: files).flatMap { files.documents[$0]?["id"] }
                content["timer"] = timer ?? .null
                try files.write(content, at: path)
                counts["relationship", default: 0] += 1
            default:
                let deleted = files.documents.filter { $0.value["$deleted"] != nil }.keys.sorted()
                guard !deleted.isEmpty else { continue }
                let path = deleted[number(deleted.count)]
                try files.remove(path)
                purged.insert(path)
                counts["purge", default: 0] += 1
            }
        }
    }

    /// Marks a document deleted, and a timer's live to-dos with it (its cascade rule), as `folio delete` does.
    private func softDelete(_ path: String, stamp: String, in files: inout StoreFiles) throws {
        guard var content = files.documents[path] else { return }
        content.insert(.string(stamp), forKey: "$deleted", at: 2)
        try files.write(content, at: path)
        guard content["$entity"] == "Timer", let id = content["id"] else { return }
        for todo in files.paths(of: "TodoItem", live: true) where files.documents[todo]?["timer"] == id {
            try softDelete(todo, stamp: stamp, in: &files)
        }
    }
}

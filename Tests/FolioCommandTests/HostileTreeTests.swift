import FolioTestSupport
import Foundation
import Testing

/// Stores whose trees hold symbolic links, as a repository someone else made can: every
/// command either works on the real tree or refuses, and nothing outside the store is ever
/// written, moved or deleted.
struct HostileTreeTests {
    /// Where a link is planted, and what it stands for.
    enum Plant: String, CaseIterable, CustomTestStringConvertible {
        case folioFolder = ".folio"
        case journal = ".folio/journal"
        case journalEntry = ".folio/journal/<transaction>"
        case stagedFile = "a staged file"
        case entityFolder = "TodoItem"
        case yearFolder = "Timer/2026"
        case monthFolder = "Timer/2026/11"
        case dayFolder = "Timer/2026/11/01"
        case document = "a document"
        case blob = "a blob"
        case manifest = "folio.json"
        case lock = ".folio/lock"
        case cache = ".folio/cache"

        var testDescription: String { rawValue }
    }

    /// Every command, the way a user would run it against the store; `ids` holds the
    /// Workout timer's identity and one of its to-dos'.
    static func commands(workout: String, todo: String) -> [[String]] {
        [
            ["info"], ["ls", "Timer"], ["count", "Timer"], ["query", "TodoItem"], ["get", workout], ["check"],
            ["export", "Timer"], ["aggregate", "Timer", "count"],
            ["insert", "Timer", "name=Tea", "durationInSeconds=60", "createdAt=2026-11-01T12:00:00Z"],
            ["insert", "TodoItem", "text=Boil", "isCompleted=false", "createdAt=2026-11-01T12:01:00Z"],
            ["set", workout, "name=Long workout"],
            ["set", workout, "createdAt=2027-03-03T10:00:00Z"],
            ["set", todo, "createdAt=2026-11-03T10:00:00Z"],
            ["delete", todo], ["restore", todo], ["delete", todo], ["purge"],
            ["edit", workout],
            ["import", "Timer", "../import.ndjson"],
            ["reindex"],
        ]
    }

    @Test(arguments: Plant.allCases)
    func everyCommandWorksOnTheRealTreeOrRefusesAndNothingOutsideChanges(plant: Plant) throws {
        let store = try TimerStore()
        let workout = try store.id(of: "Timer", where: "name == \"Workout\"")
        let todo = try store.id(of: "TodoItem", where: "text == \"Run\"")
        try plantLink(plant, in: store, document: workout)
        _ = try store.folder.create(
            "import.ndjson",
            contents: Array(#"{"name": "Imported", "durationInSeconds": 5, "createdAt": "2026-11-01T13:00:00Z"}"#.utf8)
                + [10])
        let folio = try store.folio(editor: #"sed -i 's/"name": "Workout"/"name": "Edited"/' "$1""#)
        let before = try Snapshot(of: store.folder.path, excluding: "Timers")

        for command in Self.commands(workout: workout, todo: todo) {
            let run = try folio.run(command)
            #expect([0, 1, 65, 66, 74, 75].contains(run.status), "\(command) ended with \(run.status): \(run.errors)")
            // A refusal says why (the link, or that the document behind it is not in the store).
            if run.status > 1 {
                #expect(run.errors.contains("error:"), "\(command) exited \(run.status) without saying why")
            }
            let after = try Snapshot(of: store.folder.path, excluding: "Timers")
            #expect(after == before, "\(command) changed what is outside the store: \(after.difference(from: before))")
        }
    }

    /// The issue's own reproduction: a journal that links to the user's photos.
    @Test func aJournalLinkedOutsideIsRefusedByEveryCommandAndDeletesNothing() throws {
        let store = try TimerStore()
        let photos = store.folder("victim/photos")
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: photos + "/a.jpg"))
        try FileManager.default.removeItem(atPath: store.root + "/.folio/journal")
        try FileManager.default.createSymbolicLink(
            atPath: store.root + "/.folio/journal", withDestinationPath: "../../victim/photos")

        let info = try store.folio("info")
        #expect(info.status == 65)
        #expect(info.errors.contains(".folio/journal: error: is a symbolic link"))
        #expect(FileManager.default.fileExists(atPath: photos + "/a.jpg"))
    }

    /// A transaction in flight whose journal entry is replaced by a link is refused, not followed.
    @Test func aJournalEntryLinkedOutsideIsRefused() throws {
        let store = try TimerStore()
        let victim = store.folder("victim")
        try FileManager.default.createDirectory(atPath: victim, withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: URL(fileURLWithPath: victim + "/PLAN"))
        try Data("keep".utf8).write(to: URL(fileURLWithPath: victim + "/a.jpg"))
        try FileManager.default.createDirectory(
            atPath: store.root + "/.folio/journal", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: store.root + "/.folio/journal/1-2-3", withDestinationPath: victim)

        let count = try store.folio("count", "Timer")
        #expect(count.status == 65)
        #expect(count.errors.contains("1-2-3: error: is a symbolic link"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: victim).sorted() == ["PLAN", "a.jpg"])
    }

    /// Moving a document into a year folder that links elsewhere is refused, and the
    /// document stays where it was.
    @Test func aDocumentIsNeverMovedThroughALinkedYearFolder() throws {
        let store = try TimerStore()
        let workout = try store.id(of: "Timer", where: "name == \"Workout\"")
        let outside = store.folder("outside")
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: store.root + "/Timer/2027", withDestinationPath: "../../outside")

        let set = try store.folio("set", workout, "createdAt=2027-03-03T10:00:00Z")
        #expect(set.status == 65)
        #expect(set.errors.contains("Timer/2027: error: is a symbolic link"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside).isEmpty)
        #expect(try store.folio("get", workout).status == 0)
        let insert = try store.folio(
            "insert", "Timer", "name=Later", "durationInSeconds=1", "createdAt=2027-01-01T10:00:00Z")
        #expect(insert.status == 65)
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside).isEmpty)
    }

    /// A store whose whole `.folio` is a link is refused before anything is opened in it.
    @Test func aLinkedLocalStateFolderIsRefused() throws {
        let store = try TimerStore()
        let outside = store.folder("outside")
        try FileManager.default.moveItem(atPath: store.root + "/.folio", toPath: outside)
        try FileManager.default.createSymbolicLink(atPath: store.root + "/.folio", withDestinationPath: "../outside")
        let before = try Snapshot(of: outside, excluding: "")
        let run = try store.folio("count", "Timer")
        #expect(run.status == 65)
        #expect(run.errors.contains(".folio: error: is a symbolic link"))
        #expect(try Snapshot(of: outside, excluding: "") == before)
    }

    // MARK: Planting

    /// Replaces a part of the store with a link to a copy of it outside (or to a file
    /// outside), as a hostile repository would ship it.
    private func plantLink(_ plant: Plant, in store: TimerStore, document id: String) throws {
        let files = FileManager.default
        let root = store.root
        let victim = store.folder("victim")
        try files.createDirectory(atPath: victim + "/photos", withIntermediateDirectories: true)
        try Data("photo".utf8).write(to: URL(fileURLWithPath: victim + "/photos/a.jpg"))
        try files.createDirectory(atPath: root + "/.folio/journal", withIntermediateDirectories: true)
        let documentPath = try store.path(of: id)
        let dayFolder = String(documentPath[..<documentPath.lastIndex(of: "/")!])

        /// Moves `relative` out of the store into the victim folder and links it back.
        func moveOutAndLink(_ relative: String) throws {
            let outside = victim + "/moved-" + relative.replacingOccurrences(of: "/", with: "-")
            try files.moveItem(atPath: root + "/" + relative, toPath: outside)
            try files.createSymbolicLink(atPath: root + "/" + relative, withDestinationPath: outside)
        }
        switch plant {
        case .folioFolder: try moveOutAndLink(".folio")
        case .journal:
            try files.removeItem(atPath: root + "/.folio/journal")
            try files.createSymbolicLink(atPath: root + "/.folio/journal", withDestinationPath: victim + "/photos")
        case .journalEntry:
            try files.createSymbolicLink(
                atPath: root + "/.folio/journal/1764000000-1-1", withDestinationPath: victim + "/photos")
        case .stagedFile:
            let staged = dayFolder + "/." + id + ".json.staged"
            try files.createSymbolicLink(atPath: root + "/" + staged, withDestinationPath: victim + "/photos/a.jpg")
        case .entityFolder: try moveOutAndLink("TodoItem")
        case .yearFolder: try moveOutAndLink("Timer/2026")
        case .monthFolder: try moveOutAndLink("Timer/2026/11")
        case .dayFolder: try moveOutAndLink(dayFolder)
        case .document: try moveOutAndLink(documentPath)
        case .blob:
            try Data("blob".utf8).write(to: URL(fileURLWithPath: victim + "/blob.bin"))
            try files.createSymbolicLink(
                atPath: root + "/" + dayFolder + "/" + id + ".notes.bin", withDestinationPath: victim + "/blob.bin")
        case .manifest: try moveOutAndLink("folio.json")
        case .lock:
            try? files.removeItem(atPath: root + "/.folio/lock")
            try files.createSymbolicLink(atPath: root + "/.folio/lock", withDestinationPath: victim + "/photos/a.jpg")
        case .cache:
            try? files.removeItem(atPath: root + "/.folio/cache")
            try files.createSymbolicLink(atPath: root + "/.folio/cache", withDestinationPath: victim + "/photos/a.jpg")
        }
    }
}

/// Everything in a folder as `lstat` and the bytes show it: type, mode, size, modification
/// time, link targets and content hashes. Two snapshots are equal when nothing was written,
/// moved, created or deleted in between.
struct Snapshot: Equatable {
    private(set) var entries: [String: String] = [:]

    init(of folder: String, excluding excluded: String) throws {
        try add(folder, relative: "", excluded: excluded)
    }

    private mutating func add(_ path: String, relative: String, excluded: String) throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: path) {
            let child = relative.isEmpty ? name : relative + "/" + name
            if child == excluded { continue }
            var info = stat()
            guard lstat(path + "/" + name, &info) == 0 else { continue }
            var entry = "mode \(info.st_mode) size \(info.st_size) mtime \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
            switch info.st_mode & S_IFMT {
            case S_IFLNK:
                entry += " -> " + (try FileManager.default.destinationOfSymbolicLink(atPath: path + "/" + name))
            case S_IFREG:
                entry += " hash \(FileContentHash.of(try Data(contentsOf: URL(fileURLWithPath: path + "/" + name))))"
            case S_IFDIR: try add(path + "/" + name, relative: child, excluded: excluded)
            default: break
            }
            entries[child] = entry
        }
    }

    /// The entries that differ, for a failure's message.
    func difference(from other: Snapshot) -> [String] {
        Set(entries.keys).union(other.entries.keys).sorted().filter { entries[$0] != other.entries[$0] }
            .map { "\($0): \(other.entries[$0] ?? "absent") => \(entries[$0] ?? "absent")" }
    }
}

/// FNV-1a over a file's bytes: enough to tell two contents apart in a test.
enum FileContentHash {
    static func of(_ data: Data) -> UInt64 {
        data.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }
}

import FolioJSON
import FolioTestSupport
import Foundation
import Testing

@testable import FolioCore
@testable import SeedApps

/// A dry run's unified diff is what `git diff` prints once the migration is applied, byte
/// for byte: each case builds a Timer app store in a git repository (configuration
/// isolated), commits it, runs the migration dry, applies it, announces new files with
/// `git add --intent-to-add --ignore-removal .` (new files only: a plain
/// `git add .` would stage the deletions, and `git diff` would not show them) and compares with
/// `git diff`, then with
/// `git add -A && git diff --cached`.
struct MigrationDiffTests {
    static let v1 = TimerMigrationTests.v1
    static let v2 = TimerMigrationTests.v2
    /// Where the store sits in the repository, as `Data/` holds the seed apps' stores.
    static let storeFolder = "Data/TimerApp"

    /// A committed V1 store in a scratch repository: four timers with two to-dos each.
    func committedV1Store() throws -> (repository: GitScratchRepository, root: String) {
        let repository = try GitScratchRepository()
        let root = repository.path + "/" + Self.storeFolder
        let context = ModelContext(
            try ModelContainer(
                for: Timer.self, TodoItem.self, configurations: ModelConfiguration(url: URL(fileURLWithPath: root))))
        for (name, seconds) in [("Workout", 1500), ("Study Session", 2700), ("Coffee Break", 600), ("Meditation", 900)]
        {
            let timer = Timer(name: name, durationInSeconds: seconds, notes: seconds > 1000 ? "long" : nil)
            context.insert(timer)
            timer.todoItems.append(TodoItem(text: "Warm up for \(name)"))
            timer.todoItems.append(TodoItem(text: "Write down how \(name) went"))
        }
        try context.save()
        try repository.commitAll("V1")
        return (repository, root)
    }

    /// Runs `steps` dry and then for real on a committed store and expects the dry run's
    /// diff to be git's; returns the dry run's report.
    @discardableResult
    func expectDryRunMatchesGit(
        _ steps: [MigrationStep], on store: (repository: GitScratchRepository, root: String),
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws -> MigrationReport {
        let dry = try DocumentStore.open(at: store.root).migrate(steps, dryRun: true)
        let ours = dry.unifiedDiff(pathPrefix: Self.storeFolder + "/")
        #expect(!ours.isEmpty, sourceLocation: sourceLocation)
        let applied = try DocumentStore.open(at: store.root).migrate(steps)
        #expect(applied.applied, sourceLocation: sourceLocation)
        try store.repository.git("add", "--intent-to-add", "--ignore-removal", ".")
        let git = try store.repository.git("diff")
        expectSame(ours, git, sourceLocation: sourceLocation)
        try store.repository.git("add", "-A")
        #expect(
            try store.repository.git("diff", "--cached") == ours, "git diff --cached after git add -A differs",
            sourceLocation: sourceLocation)
        return dry
    }

    /// Expects the dry run's diff to be git's, showing both as text when they differ.
    func expectSame(_ ours: [UInt8], _ git: [UInt8], sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        guard ours != git else { return }
        Issue.record(
            "the dry run printed:\n\(String(decoding: ours, as: UTF8.self))\ngit diff printed:\n\(String(decoding: git, as: UTF8.self))",
            sourceLocation: sourceLocation)
    }

    @Test func theTimerAppsV1ToV2DryRunIsGitsDiff() throws {
        let report = try expectDryRunMatchesGit([TimerMigrationTests.toV2], on: try committedV1Store())
        let diffs = report.diffs(pathPrefix: Self.storeFolder + "/")
        #expect(diffs.count == 5)
        #expect(diffs.last?.path == Self.storeFolder + "/folio.json")
    }

    @Test func aRenamedEntitysMovedDocumentsAreShownAsGitShowsThem() throws {
        let step = MigrationStep(from: Self.v1, to: Self.v2, operations: [.renameEntity(from: "TodoItem", to: "Task")])
        let report = try expectDryRunMatchesGit([step], on: try committedV1Store())
        #expect(report.diffs().contains { $0.path.hasPrefix("Task/") })
    }

    @Test func deletedDocumentsAreShownAsGitShowsThem() throws {
        let step = MigrationStep(
            from: Self.v1, to: Self.v2,
            operations: [
                .deleteDocuments(
                    entity: "TodoItem", where: .text(.startsWith, .property("text"), .value(.string("Warm up"))))
            ])
        let report = try expectDryRunMatchesGit([step], on: try committedV1Store())
        #expect(report.diffs().filter { $0.change == .deleted }.count == 4)
    }

    @Test func aRemovedPropertyIsShownAsGitShowsIt() throws {
        let step = MigrationStep(
            from: Self.v1, to: Self.v2, operations: [.removeProperty(entity: "Timer", name: "notes")])
        try expectDryRunMatchesGit([step], on: try committedV1Store())
    }

    @Test func aValueSetWhereAFilterHoldsIsShownAsGitShowsIt() throws {
        let step = MigrationStep(
            from: Self.v1, to: Self.v2,
            operations: [
                .setValue(
                    entity: "Timer", name: "icon", value: .expression(.property("name")),
                    where: .compare(.property("durationInSeconds"), .greater, .value(.integer(1000))))
            ])
        try expectDryRunMatchesGit([step], on: try committedV1Store())
    }

    @Test func aConvertedTypeIsShownAsGitShowsIt() throws {
        let step = MigrationStep(
            from: Self.v1, to: Self.v2,
            operations: [.convertType(entity: "Timer", name: "durationInSeconds", to: .string)])
        try expectDryRunMatchesGit([step], on: try committedV1Store())
    }

    /// One timer is already at 2.0.0 (merged from a newer clone) and is left alone; the
    /// others migrate, and to-dos move to a renamed entity, all in one diff.
    @Test func aMixedVersionStoresDryRunIsGitsDiff() throws {
        let store = try committedV1Store()
        let documents = try DocumentStore.open(at: store.root)
        let timer = documents.documents(entity: "Timer")[0]
        var ahead = timer.content
        ahead["$version"] = "2.0.0"
        ahead.renameMember("colorHex", to: "color")
        ahead["category"] = "Work"
        try documents.commit([.put(Document(entity: "Timer", id: timer.id, content: ahead), basedOn: timer.version)])
        try store.repository.commitAll("one timer at V2")
        var step = TimerMigrationTests.toV2
        step.operations.append(.renameEntity(from: "TodoItem", to: "Task"))
        let report = try expectDryRunMatchesGit([step], on: store)
        #expect(report.entities["Timer"] == .init(changed: 3, unchanged: 1, deleted: 0, failed: 0))
    }

    /// Git pairs files across the whole diff: a deleted file of another name can take a
    /// moved document's place when it is more similar, and a document too changed to be a
    /// rename is a deletion and an addition.
    @Test func renamesArePairedAsGitPairsThem() throws {
        func file(_ path: String, _ lines: [String]) -> GitRenameDetection.File {
            .init(path: path, bytes: Array((lines.joined(separator: "\n") + "\n").utf8))
        }
        let body = (1...12).map { "  \"line\($0)\": \($0)," }
        let sources = [
            file("A/1.json", ["{", "  \"$entity\": \"A\""] + body + ["}"]),
            file("A/2.json", ["{", "  \"$entity\": \"A\""] + body.dropLast(6) + ["}"]),
            file("A/3.json", ["{", "  \"other\": true", "}"]),
        ]
        let destinations = [
            file("B/1.json", ["{", "  \"$entity\": \"B\""] + body + ["}"]),
            file("B/2.json", ["{", "  \"$entity\": \"B\""] + body + ["}"]),
            file("B/3.json", ["{", "  \"replaced\": 1", "  \"entirely\": 2", "}"]),
        ]
        // Deleted and added by other operations: one pair of other names but the same
        // content, one of other names and similar content.
        let deleted = [
            file("A/4.json", ["{", "  \"kept\": \"A\""] + body + ["  \"extra\": 0", "}"]),
            file("A/6.json", ["{", "  \"same\": true", "}"]),
        ]
        let added = [
            file("B/5.json", ["{", "  \"kept\": \"B\""] + body + ["}"]),
            file("B/7.json", ["{", "  \"same\": true", "}"]),
        ]
        let repository = try GitScratchRepository()
        for source in sources + deleted { try repository.write(source.path, source.bytes) }
        try repository.commitAll()
        for source in sources + deleted { try repository.remove(source.path) }
        for destination in destinations + added { try repository.write(destination.path, destination.bytes) }
        try repository.git("add", "--intent-to-add", "--ignore-removal", ".")
        let git = try repository.git("diff")
        var report = MigrationReport(fromVersion: "1.0.0", toVersion: Self.v2)
        for (source, destination) in zip(sources, destinations) {
            report.files.append(
                .init(path: destination.path, oldPath: source.path, old: source.bytes, new: destination.bytes))
        }
        for file in deleted {
            report.files.append(.init(path: file.path, oldPath: file.path, old: file.bytes, new: nil))
        }
        for file in added { report.files.append(.init(path: file.path, oldPath: file.path, old: nil, new: file.bytes)) }
        #expect(report.diffs().filter { if case .renamed = $0.change { true } else { false } }.count >= 3)
        expectSame(report.unifiedDiff(), git)
    }
}

/// Blobs (`.externalStorage`) go where their documents go, and the dry run shows it as git does.
struct MigrationBlobDiffTests {
    @Test func blobsOfMovedAndDeletedDocumentsAreShownAsGitShowsThem() throws {
        let repository = try GitScratchRepository()
        let root = repository.path + "/store"
        let manifest = StoreManifest(timeZone: TimeZone(identifier: "UTC")!, schema: ["entities": ["Photo": [:]]])
        let store = try DocumentStore.create(at: root, manifest: manifest, durability: .none)
        let day = Date(timeIntervalSinceReferenceDate: 817_032_600)
        var changes: [DocumentChange] = []
        for n in 0..<4 {
            let id = UUID(uuidString: String(format: "00000000-0000-4000-8000-%012X", n))!
            let image: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0, UInt8(n)] + Array(repeating: UInt8(n), count: 100)
            changes.append(
                .put(
                    Document(
                        entity: "Photo", id: id, partitionDate: day,
                        content: [
                            "$version": "1.0.0", "n": .integer(Int64(n)),
                            "caption": .string("a photo that keeps its caption \(n)"),
                        ],
                        blobs: ["image": image]), basedOn: nil))
        }
        try store.commit(changes)
        try repository.commitAll("V1")
        let step = MigrationStep(
            from: TimerMigrationTests.v1, to: TimerMigrationTests.v2,
            operations: [
                .deleteDocuments(entity: "Photo", where: .compare(.property("n"), .less, .value(.integer(2)))),
                .renameEntity(from: "Photo", to: "Picture"),
            ])
        let dry = try DocumentStore.open(at: root).migrate([step], dryRun: true)
        #expect(dry.files.filter { $0.path.hasSuffix(".image.bin") }.count == 4)
        _ = try DocumentStore.open(at: root).migrate([step])
        try repository.git("add", "--intent-to-add", "--ignore-removal", ".")
        let git = try repository.git("diff")
        let ours = dry.unifiedDiff(pathPrefix: "store/")
        if ours != git {
            Issue.record(
                "the dry run printed:\n\(String(decoding: ours, as: UTF8.self))\ngit diff printed:\n\(String(decoding: git, as: UTF8.self))"
            )
        }
    }
}

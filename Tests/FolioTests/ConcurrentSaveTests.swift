import Folio
import FolioTestSupport
import Foundation
import Testing

/// A small model saved from many places at once.
@Model
final class Pebble {
    var batch: Int
    var index: Int
    var note: String

    init(batch: Int, index: Int, note: String) {
        self.batch = batch
        self.index = index
        self.note = note
    }
}

/// Saves from many threads, containers and processes at once, as SwiftData apps make them
/// with background contexts and model actors: every save lands, whole, and none is lost.
struct ConcurrentSaveTests {
    static let tasks = 4
    static let savesPerTask = 150

    /// `tasks` tasks, task `t` saving through a new context of `containers[t % count]`,
    /// each `savesPerTask` saves of three new models tagged with the task.
    private static func saveFromTasks(_ containers: [ModelContainer]) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                let container = containers[task % containers.count]
                group.addTask {
                    let context = ModelContext(container)
                    for save in 0..<savesPerTask {
                        for index in 0..<3 {
                            context.insert(Pebble(batch: task, index: save * 3 + index, note: "task \(task)"))
                        }
                        try context.save()
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    /// Reads the store afresh and checks that it holds exactly the pebbles of `batches`,
    /// `perBatch` of each, every file whole.
    private static func expectEveryPebble(in folder: String, batches: [Int], perBatch: Int) throws {
        let store = try DocumentStore.open(at: folder, durability: .none)
        #expect(store.issues.isEmpty, "unusable files: \(store.issues)")
        let pebbles = store.documents(entity: "Pebble")
        var seen: [Int: Set<Int64>] = [:]
        for pebble in pebbles {
            guard case .integer(let batch)? = pebble.content["batch"],
                case .integer(let index)? = pebble.content["index"]
            else {
                Issue.record("a pebble without its batch or index: \(pebble.content)")
                continue
            }
            seen[Int(batch), default: []].insert(index)
        }
        #expect(pebbles.count == batches.count * perBatch)
        for batch in batches { #expect(seen[batch] == Set(0..<Int64(perBatch)), "batch \(batch) lost saves") }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder + "/.folio/journal")
        #expect(leftovers.isEmpty, "journals left behind: \(leftovers)")
    }

    /// A container at the default durability: its syncs keep each save's journal on disk
    /// long enough for an unserialized save on another thread to trip over it.
    private static func container(in folder: String) throws -> ModelContainer {
        try ModelContainer(for: Pebble.self, configurations: ModelConfiguration(url: URL(fileURLWithPath: folder)))
    }

    @Test func contextsOfOneContainerSaveAtOnce() async throws {
        let directory = try TemporaryDirectory()
        let container = try Self.container(in: directory("store"))
        try await Self.saveFromTasks([container])
        try Self.expectEveryPebble(
            in: directory("store"), batches: Array(0..<Self.tasks), perBatch: Self.savesPerTask * 3)
    }

    @Test func contextsOfTwoContainersOnOneFolderSaveAtOnce() async throws {
        let directory = try TemporaryDirectory()
        let first = try Self.container(in: directory("store"))
        let second = try Self.container(in: directory("store"))
        try await Self.saveFromTasks([first, second])
        try Self.expectEveryPebble(
            in: directory("store"), batches: Array(0..<Self.tasks), perBatch: Self.savesPerTask * 3)
        // Each container hears of the other's saves at its next refresh.
        try first.refresh()
        #expect(try ModelContext(first).fetchCount(FetchDescriptor<Pebble>()) == Self.tasks * Self.savesPerTask * 3)
    }

    @Test func contextsAndAnotherProcessSaveAtOnce() async throws {
        let directory = try TemporaryDirectory()
        let container = try Self.container(in: directory("store"))
        let otherProcess = try ChildProcess(["inserter", directory("store"), "99", "\(Self.savesPerTask)"])
        try await Self.saveFromTasks([container])
        let other = otherProcess.finish()
        #expect(other.status == 0, "the other process failed: \(other.errors)")
        try Self.expectEveryPebble(
            in: directory("store"), batches: Array(0..<Self.tasks) + [99], perBatch: Self.savesPerTask * 3)
    }
}

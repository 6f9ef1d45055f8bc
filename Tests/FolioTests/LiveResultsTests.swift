import Folio
import FolioTestSupport
import Foundation
import Synchronization
import Testing

@testable import FolioCore

@Model final class Lamp {
    var name: String
    var watts: Int
    var bought: Date
    init(_ name: String, watts: Int, bought: Date = Date(timeIntervalSinceReferenceDate: 800_000_000)) {
        self.name = name
        self.watts = watts
        self.bought = bought
    }
}

@Model final class ReadingShelf {
    var label: String
    @Relationship(inverse: \Book.shelf) var books: [Book] = []
    init(label: String) { self.label = label }
}

@Model final class Book {
    var title: String
    var shelf: ReadingShelf?
    init(title: String) { self.title = title }
}

/// `ResultsObserver`, the container's file watcher, and contexts taking in others' changes.
@MainActor struct LiveResultsTests {
    func container(_ folder: TemporaryDirectory, watching: Bool = true) throws -> ModelContainer {
        var configuration = ModelConfiguration(url: folder.url, durability: .none)
        configuration.watchesFiles = watching
        return try ModelContainer(for: Lamp.self, configurations: configuration)
    }

    func byWatts(_ context: ModelContext) throws -> ResultsObserver<Lamp, Never> {
        try ResultsObserver(
            fetchDescriptor: FetchDescriptor<Lamp>(sortBy: [SortDescriptor(\.watts)]), modelContext: context)
    }

    @Test func aSaveInAnotherContextUpdatesTheResultsWithItsOffsets() async throws {
        let folder = try TemporaryDirectory()
        let container = try container(folder, watching: false)
        let main = ModelContext(container)
        for watts in [10, 30, 50] { main.insert(Lamp("L\(watts)", watts: watts)) }
        try main.save()
        let lamps = try byWatts(main)
        #expect(lamps.results.map(\.watts) == [10, 30, 50])

        let other = ModelContext(container)
        other.insert(Lamp("L20", watts: 20))
        try other.save()
        #expect(await eventually { lamps.results.count == 4 })
        #expect(lamps.results.map(\.watts) == [10, 20, 30, 50])
        #expect(lamps.lastChange == ResultsChange(inserted: [1]))

        let brightest = try #require(
            try other.fetch(FetchDescriptor<Lamp>(predicate: #Predicate { $0.watts == 10 })).first)
        brightest.watts = 60
        try other.save()
        #expect(
            await eventually { lamps.results.map(\.watts) == [20, 30, 50, 60] },
            "registered models take the saved values")
        #expect(lamps.lastChange == ResultsChange(moved: [.init(from: 0, to: 3)]))

        let thirty = try #require(
            try other.fetch(FetchDescriptor<Lamp>(predicate: #Predicate { $0.watts == 30 })).first)
        thirty.name = "renamed"
        try other.save()
        #expect(await eventually { lamps.lastChange == ResultsChange(updated: [1]) })
        #expect(lamps.results[1].name == "renamed")

        other.delete(thirty)
        try other.save()
        #expect(await eventually { lamps.results.count == 3 })
        #expect(lamps.lastChange == ResultsChange(removed: [1]))
    }

    @Test func aPredicateKeepsOnlyWhatMatchesAsDocumentsChange() async throws {
        let folder = try TemporaryDirectory()
        let container = try container(folder, watching: false)
        let main = ModelContext(container)
        let lamps = try ResultsObserver(
            filterBy: #Predicate<Lamp> { $0.watts >= 40 }, sortBy: [SortDescriptor(\.name)], modelContext: main)
        let other = ModelContext(container)
        let dim = Lamp("dim", watts: 5)
        other.insert(dim)
        other.insert(Lamp("bright", watts: 60))
        try other.save()
        #expect(await eventually { lamps.results.map(\.name) == ["bright"] })
        dim.watts = 45
        try other.save()
        #expect(await eventually { lamps.results.map(\.name) == ["bright", "dim"] })
        #expect(lamps.lastChange == ResultsChange(inserted: [1]))
    }

    @Test func aFetchLimitIsKeptCurrentByFetchingAgain() async throws {
        let folder = try TemporaryDirectory()
        let container = try container(folder, watching: false)
        let main = ModelContext(container)
        var descriptor = FetchDescriptor<Lamp>(sortBy: [SortDescriptor(\.watts, order: .reverse)])
        descriptor.fetchLimit = 2
        let top = try ResultsObserver(fetchDescriptor: descriptor, modelContext: main)
        let other = ModelContext(container)
        for watts in [10, 20, 30] { other.insert(Lamp("L\(watts)", watts: watts)) }
        try other.save()
        #expect(await eventually { top.results.map(\.watts) == [30, 20] })
    }

    @Test func aFileAnotherProgramWritesReachesTheResultsAndTheRegisteredModels() async throws {
        let folder = try TemporaryDirectory()
        let container = try container(folder)
        let main = ModelContext(container)
        let lamp = Lamp("desk", watts: 40)
        main.insert(lamp)
        try main.save()
        let lamps = try byWatts(main)

        // Another program: a container of its own, whose writes this one only sees on disk.
        let elsewhere = ModelContext(try self.container(folder, watching: false))
        elsewhere.insert(Lamp("hall", watts: 25))
        try elsewhere.save()
        #expect(await eventually { lamps.results.map(\.name) == ["hall", "desk"] })

        // A person's edit of the file.
        let file = try #require(
            FileManager.default.enumerator(atPath: folder.url.appending(path: "Lamp").path)?.allObjects
                .compactMap { $0 as? String }.first { $0.hasSuffix(lamp.persistentModelID.id.uuidString + ".json") })
        let url = folder.url.appending(path: "Lamp/\(file)")
        let text = try String(contentsOf: url, encoding: .utf8).replacingOccurrences(of: "40", with: "15")
        try text.write(to: url, atomically: true, encoding: .utf8)
        #expect(await eventually { lamps.results.map(\.name) == ["desk", "hall"] })
        #expect(lamp.watts == 15, "the registered model took the edited value")
        #expect(lamps.lastChange.moved.count == 1)
    }

    @Test func aModelWithUnsavedChangesKeepsThemAndItsSaveConflicts() async throws {
        let folder = try TemporaryDirectory()
        let container = try container(folder, watching: false)
        let main = ModelContext(container)
        let lamp = Lamp("desk", watts: 40)
        main.insert(lamp)
        try main.save()
        lamp.watts = 41
        let other = ModelContext(container)
        let same = try #require(try other.fetch(FetchDescriptor<Lamp>()).first)
        same.watts = 99
        try other.save()
        _ = try main.fetch(FetchDescriptor<Lamp>())
        #expect(lamp.watts == 41)
        #expect(throws: FolioError.self) { try main.save() }
    }

    @Test func theContainersOwnWritesAreToldOnceAndTheWatcherGoesWithIt() async throws {
        let folder = try TemporaryDirectory()
        var container: ModelContainer? = try container(folder)
        let told = Mutex(0)
        let key = container!.opened.listeners.add { _ in told.withLock { $0 += 1 } }
        let context = ModelContext(container!)
        context.insert(Lamp("one", watts: 1))
        try context.save()
        // The watcher sees the file; its refresh finds the catalog current and tells no one.
        try await Task.sleep(for: .milliseconds(400))
        #expect(told.withLock { $0 } == 1)
        container!.opened.listeners.remove(key)

        weak let watcher = container!.opened.watchers.withLock { $0.first }
        #expect(watcher != nil)
        _ = consume context
        container = nil
        #expect(watcher == nil, "the watcher went with its container")
    }

    @Test func aPredicateThroughARelationshipFollowsChangesToTheRelatedDocument() async throws {
        let folder = try TemporaryDirectory()
        let container = try ModelContainer(
            for: ReadingShelf.self, Book.self,
            configurations: ModelConfiguration(url: folder.url, durability: .none))
        let main = ModelContext(container)
        let shelf = ReadingShelf(label: "bottom")
        let book = Book(title: "Dune")
        book.shelf = shelf
        main.insert(book)
        try main.save()
        let onTop = try ResultsObserver(filterBy: #Predicate<Book> { $0.shelf?.label == "top" }, modelContext: main)
        #expect(onTop.results.isEmpty)
        let other = ModelContext(container)
        let same = try #require(try other.fetch(FetchDescriptor<ReadingShelf>()).first)
        same.label = "top"
        try other.save()
        #expect(await eventually { onTop.results.map(\.title) == ["Dune"] }, "only the shelf's document changed")
    }

    @Test func randomSavesKeepTheResultsEqualToAFetchAndTheOffsetsReplayThem() async throws {
        let folder = try TemporaryDirectory()
        let container = try container(folder, watching: false)
        let main = ModelContext(container)
        let descriptor = FetchDescriptor<Lamp>(
            predicate: #Predicate { $0.watts % 3 != 0 }, sortBy: [SortDescriptor(\.watts), SortDescriptor(\.name)])
        let lamps = try ResultsObserver(fetchDescriptor: descriptor, modelContext: main)
        let other = ModelContext(container)
        var random = SystemRandomNumberGenerator()
        var shown = lamps.results.map(\.persistentModelID)
        for step in 0..<60 {
            let existing = try other.fetch(FetchDescriptor<Lamp>())
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                switch Int.random(in: 0..<3, using: &random) {
                case 0 where !existing.isEmpty:
                    existing.randomElement(using: &random)!.watts = Int.random(in: 0..<30, using: &random)
                case 1 where existing.count > 3:
                    other.delete(existing.randomElement(using: &random)!)
                default:
                    other.insert(Lamp("L\(step)", watts: Int.random(in: 0..<30, using: &random)))
                }
            }
            try other.save()
            let expected = try ModelContext(container).fetchIdentifiers(descriptor)
            #expect(await eventually { lamps.results.map(\.persistentModelID) == expected }, "step \(step)")
            // The offsets, applied as a table view applies a batch update, give the new list. A
            // save that leaves the list as it was sends no change: the last one is an earlier step's.
            if shown != expected {
                let change = lamps.lastChange
                let gone = Set(change.removed + change.moved.map(\.from))
                var replayed = shown.enumerated().filter { !gone.contains($0.offset) }.map(\.element)
                let arriving =
                    (change.inserted.map { ($0, expected[$0]) } + change.moved.map { ($0.to, expected[$0.to]) })
                    .sorted { $0.0 < $1.0 }
                for (offset, id) in arriving {
                    guard offset <= replayed.count else {
                        Issue.record("step \(step): \(change) does not lead from \(shown) to \(expected)")
                        return
                    }
                    replayed.insert(id, at: offset)
                }
                #expect(replayed == expected, "step \(step): \(change)")
            }
            shown = expected
        }
    }

    @Test func placingReportsTouchedRowsOnly() {
        // [1, 2, 3, 4] to [2, 3, 1, 4, 9]: 1 moved past 2 and 3, 9 came.
        let change = ResultsChange.placing(before: [1: 0], after: [1: 2, 9: 4])
        #expect(change == ResultsChange(inserted: [4], moved: [.init(from: 0, to: 2)]))
        // [1, 2, 3, 4] to [1, 3, 2, 4]: 2 and 3 changed places between the same neighbours.
        // By identity that is a move: one of them, the other updated where it now is.
        let swapped = ResultsChange.placing(before: [2: 1, 3: 2], after: [3: 1, 2: 2])
        #expect(swapped == ResultsChange(moved: [.init(from: 2, to: 1)], updated: [2]))
        // [1, 2, 3, 4] to [1, 2, 3, 4] with 2 and 3 changed: both in place.
        #expect(ResultsChange.placing(before: [2: 1, 3: 2], after: [2: 1, 3: 2]) == ResultsChange(updated: [1, 2]))
        // [1, 2, 3] to [1, 3]: 2 went.
        #expect(ResultsChange.placing(before: [2: 1], after: [:]) == ResultsChange(removed: [1]))
    }

    @Test func resultsChangeReportsTheFewestMoves() {
        let change = ResultsChange.between([1, 2, 3, 4], [2, 3, 4, 1], touched: [1])
        #expect(change == ResultsChange(moved: [.init(from: 0, to: 3)]))
        let mixed = ResultsChange.between([1, 2, 3], [0, 1, 3, 5], touched: [0, 3, 5])
        #expect(mixed == ResultsChange(removed: [1], inserted: [0, 3], updated: [2]))
    }

    @Test func anObserverNeedsAnActor() async throws {
        let folder = try TemporaryDirectory()
        let context = ModelContext(try container(folder, watching: false))
        let made = await Task.detached { () -> Bool in
            (try? ResultsObserver(fetchDescriptor: FetchDescriptor<Lamp>(), modelContext: context, isolation: nil))
                != nil
        }.value
        #expect(!made)
    }
}

import Folio
import FolioTestSupport
import Foundation
import Testing

@testable import SeedApps

/// The Timer app's documented operations, end to end on a store in a temporary folder
/// and in memory: create, fetch sorted and filtered, cascade, reopen, hand edits.
struct TimerAppStoreTests {
    func container(at folder: TemporaryDirectory) throws -> ModelContainer {
        try ModelContainer(for: Timer.self, configurations: ModelConfiguration(url: folder.url, durability: .none))
    }

    /// Every document file under the store, relative to it.
    func documentFiles(in folder: TemporaryDirectory) throws -> [String] {
        let enumerator = try #require(FileManager.default.enumerator(atPath: folder.path))
        return enumerator.compactMap { $0 as? String }.filter {
            $0.hasSuffix(".json") && !$0.hasPrefix(".folio") && $0 != "folio.json"
        }.sorted()
    }

    @Test func insertedTimersAreSavedAsOneDocumentEachAndReadBackAfterReopening() throws {
        let folder = try TemporaryDirectory()
        let tea = Timer(name: "Tea", durationInSeconds: 180, notes: "green")
        do {
            let context = ModelContext(try container(at: folder))
            context.insert(tea)
            tea.todoItems.append(TodoItem(text: "Boil water"))
            tea.todoItems.append(TodoItem(text: "Steep", sortOrder: 1))
            #expect(context.hasChanges)
            try context.save()
            #expect(!context.hasChanges)
        }
        let files = try documentFiles(in: folder)
        #expect(files.count == 3)
        #expect(files.contains { $0.hasPrefix("Timer/") && $0.hasSuffix("/\(tea.id.uuidString).json") })

        let context = ModelContext(try container(at: folder))
        let timers = try context.fetch(FetchDescriptor<Timer>())
        let reread = try #require(timers.first)
        #expect(timers.count == 1)
        #expect(
            reread.id == tea.id && reread.name == "Tea" && reread.notes == "green" && reread.durationInSeconds == 180)
        #expect(reread.createdAt == tea.createdAt, "dates round-trip to the bit")
        #expect(reread.todoItems.map(\.text).sorted() == ["Boil water", "Steep"])
        #expect(reread.todoItems.allSatisfy { $0.timer === reread }, "the inverse points back at the same instance")
    }

    @Test func theTimerDocumentIsReadableJSONWithoutTheInverseToMany() throws {
        let folder = try TemporaryDirectory()
        let context = ModelContext(try container(at: folder))
        let tea = Timer(name: "Tea", durationInSeconds: 180)
        context.insert(tea)
        tea.todoItems = [TodoItem(text: "Boil water")]
        try context.save()
        let timerFile = try #require(try documentFiles(in: folder).first { $0.hasPrefix("Timer/") })
        let text = try String(contentsOfFile: folder(timerFile), encoding: .utf8)
        #expect(
            text.hasPrefix(
                "{\n  \"$entity\": \"Timer\",\n  \"$version\": \"1.0.0\",\n  \"id\": \"\(tea.id.uuidString)\",\n  \"name\": \"Tea\","
            ))
        #expect(
            !text.contains("todoItems"), "a to-many whose inverse is a to-one is the set of documents pointing back")
        let itemFile = try #require(try documentFiles(in: folder).first { $0.hasPrefix("TodoItem/") })
        let item = try String(contentsOfFile: folder(itemFile), encoding: .utf8)
        #expect(item.contains("\"timer\": \"\(tea.id.uuidString)\""))
    }

    @Test func settingEitherSideOfARelationshipKeepsTheOtherCurrent() {
        let tea = Timer(name: "Tea", durationInSeconds: 180)
        let coffee = Timer(name: "Coffee", durationInSeconds: 240)
        let item = TodoItem(text: "Grind")
        item.timer = tea
        #expect(tea.todoItems.map(\.text) == ["Grind"])
        coffee.todoItems.append(item)
        #expect(item.timer === coffee)
        #expect(tea.todoItems.isEmpty, "moving the item takes it out of its previous timer")
        item.timer = nil
        #expect(coffee.todoItems.isEmpty)
    }

    @Test func savingUnchangedModelsWritesNothing() throws {
        let folder = try TemporaryDirectory()
        let context = ModelContext(try container(at: folder))
        let tea = Timer(name: "Tea", durationInSeconds: 180)
        context.insert(tea)
        try context.save()
        let file = folder(try #require(try documentFiles(in: folder).first))
        let before = try FileManager.default.attributesOfItem(atPath: file)[.modificationDate] as? Date
        try context.save()
        _ = try context.fetch(FetchDescriptor<Timer>())
        tea.name = "Tea"  // the same value: a change to track, but the same bytes
        try context.save()
        let after = try FileManager.default.attributesOfItem(atPath: file)[.modificationDate] as? Date
        #expect(before == after)
        tea.name = "Green tea"
        try context.save()
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains("\"name\": \"Green tea\""))
    }

    @Test func fetchesSortFilterAndPageAsTheSeedDoes() throws {
        let context = ModelContext(
            try ModelContainer(for: Timer.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        for (index, name) in ["Tea", "Bread", "Eggs", "Pasta"].enumerated() {
            let timer = Timer(name: name, durationInSeconds: 60 * (index + 1))
            context.insert(timer)
            timer.todoItems = [TodoItem(text: "step", isCompleted: name != "Eggs")]
        }
        try context.save()
        let byName = try context.fetch(FetchDescriptor<Timer>(sortBy: [SortDescriptor(\.name)]))
        #expect(byName.map(\.name) == ["Bread", "Eggs", "Pasta", "Tea"])
        let page = try context.fetch(
            FetchDescriptor<Timer>(sortBy: [SortDescriptor(\.name, order: .reverse)], fetchLimit: 2, fetchOffset: 1))
        #expect(page.map(\.name) == ["Pasta", "Eggs"])
        // The seed's @Query filter: timers with an unfinished to-do.
        let unfinished = try context.fetchOnDocuments(
            FetchDescriptor<Timer>(predicate: #Predicate { timer in timer.todoItems.contains { !$0.isCompleted } }))
        #expect(unfinished.map(\.name) == ["Eggs"])
        #expect(
            try context.fetchCount(FetchDescriptor<Timer>(predicate: #Predicate { $0.durationInSeconds > 120 })) == 2)
    }

    @Test func deletingATimerCascadesToItsTodoItems() throws {
        let context = ModelContext(
            try ModelContainer(for: Timer.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        let tea = Timer(name: "Tea", durationInSeconds: 180)
        let bread = Timer(name: "Bread", durationInSeconds: 3600)
        context.insert(tea)
        context.insert(bread)
        tea.todoItems = [TodoItem(text: "Boil"), TodoItem(text: "Steep")]
        bread.todoItems = [TodoItem(text: "Knead")]
        try context.save()
        context.delete(tea)
        try context.save()
        #expect(try context.fetch(FetchDescriptor<Timer>()).map(\.name) == ["Bread"])
        #expect(try context.fetch(FetchDescriptor<TodoItem>()).map(\.text) == ["Knead"])
    }

    @Test func softDeletesKeepTheDocumentStampedAndFetchesSkipIt() throws {
        let folder = try TemporaryDirectory()
        let context = ModelContext(try container(at: folder))
        let tea = Timer(name: "Tea", durationInSeconds: 180)
        context.insert(tea)
        tea.todoItems = [TodoItem(text: "Boil")]
        try context.save()
        context.delete(tea)
        try context.save()
        #expect(try context.fetch(FetchDescriptor<Timer>()).isEmpty)
        #expect(try context.fetch(FetchDescriptor<TodoItem>()).isEmpty, "the cascade is soft too")
        #expect(try documentFiles(in: folder).count == 2, "both documents stay, as tombstones")

        var all = FetchDescriptor<Timer>()
        all.includeDeleted = true
        let tombstone = try #require(try ModelContext(try container(at: folder)).fetch(all).first)
        #expect(tombstone.name == "Tea" && !tombstone.isDeleted && tombstone.deletedAt != nil)
    }

    @Test func restoringASoftDeletedTimerBringsItsTodoItemsBackAndPurgeRemovesFiles() throws {
        let folder = try TemporaryDirectory()
        do {
            let context = ModelContext(try container(at: folder))
            let tea = Timer(name: "Tea", durationInSeconds: 180)
            let bread = Timer(name: "Bread", durationInSeconds: 3600)
            context.insert(tea)
            context.insert(bread)
            tea.todoItems = [TodoItem(text: "Boil"), TodoItem(text: "Steep")]
            try context.save()
            context.delete(tea)
            try context.save()
            context.delete(bread)
            try context.save()
        }
        let context = ModelContext(try container(at: folder))
        var deleted = FetchDescriptor<Timer>(predicate: #Predicate { $0.name == "Tea" })
        deleted.includeDeleted = true
        let tea = try #require(try context.fetch(deleted).first)
        context.restore(tea)
        try context.save()
        #expect(try context.fetch(FetchDescriptor<Timer>()).map(\.name) == ["Tea"])
        #expect(
            try context.fetch(FetchDescriptor<TodoItem>(sortBy: [SortDescriptor(\.text)])).map(\.text) == [
                "Boil", "Steep",
            ])
        #expect(
            try !String(
                contentsOfFile: folder(try documentFiles(in: folder).first { $0.contains(tea.id.uuidString) }!),
                encoding: .utf8
            ).contains("$deleted"))

        #expect(try context.purge(deletedBefore: Date()) == 1, "only Bread is still deleted")
        #expect(try documentFiles(in: folder).count == 3)
    }

    @Test func insertingATimerWithAnExistingIDUpdatesIt() throws {
        let folder = try TemporaryDirectory()
        let id = UUID()
        do {
            let context = ModelContext(try container(at: folder))
            context.insert(Timer(id: id, name: "Tea", durationInSeconds: 180))
            try context.save()
        }
        let context = ModelContext(try container(at: folder))
        context.insert(Timer(id: id, name: "Green tea", durationInSeconds: 120))
        try context.save()
        let timers = try context.fetch(FetchDescriptor<Timer>())
        #expect(timers.map(\.name) == ["Green tea"])
        #expect(try documentFiles(in: folder).count == 1)
    }

    @Test func handEditsAreReadAndUnknownKeysSurviveASave() throws {
        let folder = try TemporaryDirectory()
        let tea = Timer(name: "Tea", durationInSeconds: 180)
        do {
            let context = ModelContext(try container(at: folder))
            context.insert(tea)
            try context.save()
        }
        let file = folder(try #require(try documentFiles(in: folder).first))
        var text = try String(contentsOfFile: file, encoding: .utf8)
        text = text.replacingOccurrences(
            of: "\"name\": \"Tea\",", with: "\"name\": \"Oolong\",\n  \"brewer\": \"kyusu\",")
        try text.write(toFile: file, atomically: false, encoding: .utf8)

        let context = ModelContext(try container(at: folder))
        let reread = try #require(try context.fetch(FetchDescriptor<Timer>()).first)
        #expect(reread.name == "Oolong")
        reread.durationInSeconds = 240
        try context.save()
        let saved = try String(contentsOfFile: file, encoding: .utf8)
        #expect(
            saved.contains("\"name\": \"Oolong\",\n  \"brewer\": \"kyusu\",\n  \"durationInSeconds\": 240,"),
            "the unknown key stays in its place")
    }

    @Test func aDocumentWithAWrongValueIsReportedByPath() throws {
        let folder = try TemporaryDirectory()
        do {
            let context = ModelContext(try container(at: folder))
            context.insert(Timer(name: "Tea", durationInSeconds: 180))
            try context.save()
        }
        let file = try #require(try documentFiles(in: folder).first)
        let text = try String(contentsOfFile: folder(file), encoding: .utf8)
        try text.replacingOccurrences(
            of: "\"durationInSeconds\": 180", with: "\"durationInSeconds\": \"three minutes\""
        )
        .write(toFile: folder(file), atomically: false, encoding: .utf8)
        let context = ModelContext(try container(at: folder))
        let error = try #require(throws: FolioError.self) { try context.fetch(FetchDescriptor<Timer>()) }
        #expect(error.path == file)
        #expect(error.description.contains("durationInSeconds"))
    }

    @Test func aMalformedFileFailsTheFetchByPathOrIsSkippedAndListed() throws {
        let folder = try TemporaryDirectory()
        do {
            let context = ModelContext(try container(at: folder))
            context.insert(Timer(name: "Tea", durationInSeconds: 180))
            context.insert(Timer(name: "Bread", durationInSeconds: 3600))
            try context.save()
        }
        let file = try #require(try documentFiles(in: folder).first)
        let broken = try String(contentsOfFile: folder(file), encoding: .utf8).replacingOccurrences(
            of: "\"name\":", with: "\"name\"")
        try broken.write(toFile: folder(file), atomically: false, encoding: .utf8)
        // By default a fetch whose answer depends on it says so, with its line and column.
        let failingContext = ModelContext(try container(at: folder))
        let failing = try #require(throws: FolioError.self) { try failingContext.fetch(FetchDescriptor<Timer>()) }
        #expect(failing.description.hasPrefix(file + ":5:10: error: expected ':'"), "\(failing.description)")
        // Asked to, it leaves the file out, and lists it.
        var configuration = ModelConfiguration(url: folder.url, durability: .none)
        configuration.unreadableDocuments = .skip
        let container = try ModelContainer(for: Timer.self, configurations: configuration)
        #expect(try ModelContext(container).fetch(FetchDescriptor<Timer>()).count == 1)
        let issue = try #require(container.issues.first)
        #expect(issue.path == file)
        #expect(issue.description.hasPrefix(file + ":5:10: error: expected ':'"), "\(issue.description)")
        #expect(try String(contentsOfFile: folder(file), encoding: .utf8) == broken, "the file is left as it was")
    }

    @Test func aHandEditBetweenReadAndSaveIsAConflictNamingTheModel() throws {
        let folder = try TemporaryDirectory()
        let context = ModelContext(try container(at: folder))
        let tea = Timer(name: "Tea", durationInSeconds: 180)
        context.insert(tea)
        try context.save()
        let file = folder(try #require(try documentFiles(in: folder).first))
        let edited = try String(contentsOfFile: file, encoding: .utf8).replacingOccurrences(of: "Tea", with: "Chai")
        try edited.write(toFile: file, atomically: false, encoding: .utf8)
        tea.durationInSeconds = 200
        let error = try #require(throws: FolioError.self) { try context.save() }
        #expect(error.kind == .conflict, "\(error)")
        #expect(error.reason.contains("Timer \(tea.id.uuidString)"))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == edited, "the person's edit is left as it was")
    }

    @Test func theOverwritePolicyWritesOverAHandEdit() throws {
        let folder = try TemporaryDirectory()
        let configuration = ModelConfiguration(url: folder.url, durability: .none, conflicts: .overwrite)
        let context = ModelContext(try ModelContainer(for: Timer.self, configurations: configuration))
        let tea = Timer(name: "Tea", durationInSeconds: 180)
        context.insert(tea)
        try context.save()
        let file = folder(try #require(try documentFiles(in: folder).first))
        try String(contentsOfFile: file, encoding: .utf8).replacingOccurrences(of: "Tea", with: "Chai").write(
            toFile: file, atomically: false, encoding: .utf8)
        tea.durationInSeconds = 200
        try context.save()
        let saved = try String(contentsOfFile: file, encoding: .utf8)
        #expect(saved.contains("\"name\": \"Tea\"") && saved.contains("\"durationInSeconds\": 200"), "last writer wins")
    }

    @Test func rollbackForgetsInsertsAndRestoresChangedValues() throws {
        let context = ModelContext(
            try ModelContainer(for: Timer.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        let tea = Timer(name: "Tea", durationInSeconds: 180)
        context.insert(tea)
        try context.save()
        tea.name = "Coffee"
        context.insert(Timer(name: "Bread", durationInSeconds: 60))
        context.rollback()
        #expect(tea.name == "Tea")
        #expect(!context.hasChanges)
        #expect(try context.fetch(FetchDescriptor<Timer>()).map(\.name) == ["Tea"])
    }
}

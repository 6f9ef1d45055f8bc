import Folio
import FolioTestSupport
import Foundation
import Testing

@Model final class MeterReading {
    var value: Int
    init(value: Int) { self.value = value }
}

/// `fetch(_:batchSize:)` as an app scrolls through it: the models are made a batch at a
/// time, and the batches left behind are let go, so a long read holds a window of models.
struct BatchedFetchTests {
    func store(_ folder: TemporaryDirectory, readings: Int) throws -> ModelContainer {
        let container = try ModelContainer(
            for: MeterReading.self, configurations: ModelConfiguration(url: folder.url, durability: .none))
        let context = ModelContext(container)
        for value in 0..<readings { context.insert(MeterReading(value: value)) }
        try context.save()
        return container
    }

    @Test func readingThroughABatchedFetchLetsThePassedBatchesGo() throws {
        let folder = try TemporaryDirectory()
        let context = ModelContext(try store(folder, readings: 1_000))
        let results = try context.fetch(
            FetchDescriptor<MeterReading>(sortBy: [SortDescriptor(\.value)]), batchSize: 50)
        let firstIdentifier = results[0].persistentModelID
        weak let first = results[0]
        #expect(first != nil, "the batch just read is kept")

        var total = 0
        for reading in results { total += reading.value }

        #expect(total == (0..<1_000).reduce(0, +))
        #expect(first == nil, "nothing holds the first batch's models once the read moved on")
        let registered: MeterReading? = context.registeredModel(for: firstIdentifier)
        #expect(registered == nil, "the context let them go too")
        #expect(results[0].value == 0, "read again, the model is made anew")
    }

    @Test func aModelTheAppHoldsOrChangedStaysTheSameModel() throws {
        let folder = try TemporaryDirectory()
        let container = try store(folder, readings: 400)
        let context = ModelContext(container)
        let results = try context.fetch(
            FetchDescriptor<MeterReading>(sortBy: [SortDescriptor(\.value)]), batchSize: 20)
        let held = results[0]
        results[1].value = -1

        for reading in results { _ = reading.value }

        #expect(results[0] === held)
        #expect(results[1].value == -1, "the unsaved change was kept")
        try context.save()
        let stored = try ModelContext(container).fetch(
            FetchDescriptor<MeterReading>(predicate: #Predicate { $0.value == -1 }))
        #expect(stored.count == 1)
    }
}

import FolioTestSupport
import Foundation
import Testing

@testable import FolioCore

/// The planner's choice of index for each kind of query, shown by `explain`, and the
/// indexes following every way documents change: saves, deletes, soft deletes, edits
/// by hand, and reopening.
struct QueryIndexTests {
    static let day = 86_400.0
    static let start = Date(timeIntervalSince1970: 1_790_000_000)

    func container(_ folder: TemporaryDirectory) throws -> ModelContainer {
        try ModelContainer(
            for: Errand.self, Household.self,
            configurations: ModelConfiguration(url: folder.url.appendingPathComponent("Errands"), durability: .none))
    }

    /// Forty errands over forty days, priorities 0-4, in two households.
    func populate(_ context: ModelContext) throws -> (errands: [Errand], households: [Household]) {
        let households = [Household(name: "North"), Household(name: "South")]
        var errands: [Errand] = []
        for number in 0..<40 {
            let errand = Errand(
                title: "Errand \(number)", code: "E\(number)", priority: number % 5, done: number % 3 == 0,
                due: Self.start.addingTimeInterval(Double(number) * Self.day), estimate: nil, note: nil, tags: [])
            errand.household = households[number % 2]
            context.insert(errand)
            errands.append(errand)
        }
        try context.save()
        return (errands, households)
    }

    @Test func explainShowsTheAccessForEachIndexKind() throws {
        let folder = try TemporaryDirectory()
        let context = ModelContext(try container(folder))
        let (errands, households) = try populate(context)
        let target = errands[7].id
        let identity = try context.explain(FetchDescriptor<Errand>(predicate: #Predicate { $0.id == target }))
        #expect(identity.access == .identity(target))
        #expect(identity.examined == 1 && identity.matched == 1)
        #expect(identity.description.contains("identity lookup"))

        let unique = try context.explain(FetchDescriptor<Errand>(predicate: #Predicate { $0.code == "E12" && $0.done }))
        #expect(unique.access == .index(["code"], key: [.string("E12")], unique: true))
        #expect(unique.examined == 1 && unique.matched == 1)

        let indexed = try context.explain(FetchDescriptor<Errand>(predicate: #Predicate { $0.priority == 3 }))
        #expect(indexed.access == .index(["priority"], key: [.integer(3)], unique: false))
        #expect(indexed.examined == 8 && indexed.matched == 8)
        #expect(indexed.description.contains("index (priority) == (3)"))

        let north = households[0].persistentModelID
        let related = try context.explain(
            FetchDescriptor<Errand>(predicate: #Predicate { $0.household?.persistentModelID == north }))
        #expect(related.access == .relationship("household", north.id))
        #expect(related.examined == 20 && related.matched == 20)

        let from = Self.start.addingTimeInterval(10 * Self.day)
        let to = Self.start.addingTimeInterval(15 * Self.day)
        let range = try context.explain(
            FetchDescriptor<Errand>(predicate: #Predicate { $0.due >= from && $0.due < to }))
        guard case .days(property: "due", _, _) = range.access else {
            Issue.record("expected a day range, got \(range.access)")
            return
        }
        #expect(range.matched == 5)
        #expect(range.examined <= 7)
        #expect(range.daysRead.map { $0.of } == 40)

        let scan = try context.explain(FetchDescriptor<Errand>(predicate: #Predicate { $0.title.contains("1") }))
        #expect(scan.access == .scan)
        #expect(scan.examined == 40 && scan.matched == 13)
        #expect(scan.fallback == nil)
    }

    @Test func indexesFollowSavesDeletesAndSoftDeletes() throws {
        let folder = try TemporaryDirectory()
        let context = ModelContext(try container(folder))
        let (errands, _) = try populate(context)
        func priority(_ value: Int) throws -> [String] {
            try context.fetch(
                FetchDescriptor<Errand>(
                    predicate: #Predicate { $0.priority == value }, sortBy: [SortDescriptor(\.code)])
            ).map(\.code)
        }
        #expect(try priority(4) == ["E14", "E19", "E24", "E29", "E34", "E39", "E4", "E9"])
        errands[4].priority = 0
        try context.save()
        #expect(try priority(4) == ["E14", "E19", "E24", "E29", "E34", "E39", "E9"])
        #expect(try priority(0).contains("E4"))

        // A soft delete leaves the document (and its index entry) but not the result.
        context.delete(errands[9])
        try context.save()
        #expect(try priority(4) == ["E14", "E19", "E24", "E29", "E34", "E39"])
        var withDeleted = FetchDescriptor<Errand>(predicate: #Predicate { $0.priority == 4 })
        withDeleted.includeDeleted = true
        #expect(try context.fetchCount(withDeleted) == 7)

        // A new model is found through the index at once, before and after saving.
        let late = Errand(
            title: "Late", code: "E99", priority: 4, done: false, due: Self.start, estimate: nil, note: nil, tags: [])
        context.insert(late)
        #expect(try priority(4).contains("E99"))
        try context.save()
        #expect(try priority(4).contains("E99"))
        #expect(try context.explain(FetchDescriptor<Errand>(predicate: #Predicate { $0.priority == 4 })).matched == 7)
    }

    @Test func indexesFollowHandEditsAndReopening() throws {
        let folder = try TemporaryDirectory()
        do {
            let context = ModelContext(try container(folder))
            let (errands, _) = try populate(context)
            #expect(try context.fetchCount(FetchDescriptor<Errand>(predicate: #Predicate { $0.priority == 2 })) == 8)
            #expect(errands[2].code == "E2")
        }
        // Edit one document by hand: priority 2 becomes 1.
        let store = try DocumentStore.open(at: folder("Errands"))
        let edited = try #require(store.documents(entity: "Errand").first { $0.content["code"] == .string("E2") })
        let file = folder("Errands/" + edited.path.relativePath)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains("\"priority\": 2"))
        try text.replacingOccurrences(of: "\"priority\": 2", with: "\"priority\": 1").write(
            toFile: file, atomically: false, encoding: .utf8)

        let reopened = try container(folder)
        let context = ModelContext(reopened)
        #expect(try context.fetchCount(FetchDescriptor<Errand>(predicate: #Predicate { $0.priority == 2 })) == 7)
        #expect(
            try context.fetch(FetchDescriptor<Errand>(predicate: #Predicate { $0.priority == 1 })).contains {
                $0.code == "E2"
            })

        // And again while open: the refresh finds the edit and the index follows it.
        try text.replacingOccurrences(of: "\"priority\": 2", with: "\"priority\": 3").write(
            toFile: file, atomically: false, encoding: .utf8)
        try reopened.refresh()
        let three = try ModelContext(reopened).fetch(
            FetchDescriptor<Errand>(predicate: #Predicate { $0.priority == 3 }))
        #expect(three.contains { $0.code == "E2" })
        #expect(
            try ModelContext(reopened).fetchCount(FetchDescriptor<Errand>(predicate: #Predicate { $0.priority == 1 }))
                == 8)
    }

    /// What the indexes answer, in the order they answer it: lookups by each index kind,
    /// a day range, the ordered walk, counts with and without soft-deleted documents.
    func answers(_ container: ModelContainer, households: [PersistentIdentifier]) throws -> [String] {
        let context = ModelContext(container)
        func ids(_ descriptor: FetchDescriptor<Errand>) throws -> String {
            try context.fetchIdentifiers(descriptor).map(\.id.uuidString).joined(separator: " ")
        }
        var answers: [String] = []
        for value in 0..<5 {
            answers.append(try ids(FetchDescriptor(predicate: #Predicate { $0.priority == value })))
            var withDeleted = FetchDescriptor<Errand>(predicate: #Predicate { $0.priority == value })
            withDeleted.includeDeleted = true
            answers.append("\(try context.fetchCount(withDeleted))")
        }
        for code in ["E3", "E17", "N1.0", "N5.2", "R11.3"] {
            answers.append(try ids(FetchDescriptor(predicate: #Predicate { $0.code == code })))
        }
        for household in households {
            answers.append(
                try ids(FetchDescriptor(predicate: #Predicate { $0.household?.persistentModelID == household })))
        }
        let from = Self.start.addingTimeInterval(5 * Self.day)
        let to = Self.start.addingTimeInterval(25 * Self.day)
        answers.append(try ids(FetchDescriptor(predicate: #Predicate { $0.due >= from && $0.due < to })))
        answers.append(try ids(FetchDescriptor(sortBy: [SortDescriptor(\.due, order: .reverse)], fetchLimit: 6)))
        answers.append(try ids(FetchDescriptor(sortBy: [SortDescriptor(\.due)], fetchLimit: 4)))
        answers.append(
            "\(try context.aggregate(Aggregation<Errand>.count, groupedBy: \Errand.priority).map { "\($0.group) \($0.count)" })"
        )
        return answers
    }

    @Test func indexesThatFollowChangesAnswerAsIndexesBuiltAnew() throws {
        let folder = try TemporaryDirectory()
        let container = try container(folder)
        var context = ModelContext(container)
        var (errands, households) = try populate(context)
        let householdIDs = households.map(\.persistentModelID)
        var dice = SplitMix64(seed: 20_261_124)
        func roll(_ sides: Int) -> Int { Int(dice.next() % UInt64(sides)) }
        _ = try answers(container, households: householdIDs)  // the tables and the ordered indexes, made once
        for round in 0..<25 {
            // Mostly a few changes (followed row by row), now and then many (merged).
            for step in 0..<(round % 6 == 5 ? 12 + roll(12) : 1 + roll(6)) {
                let errand = errands[roll(errands.count)]
                switch roll(7) {
                case 0, 1:
                    let added = Errand(
                        title: "New \(round).\(step)", code: "N\(round).\(step)", priority: roll(5), done: false,
                        due: Self.start.addingTimeInterval(Double(roll(80) - 10) * Self.day + 3_600), estimate: nil,
                        note: nil, tags: [])
                    added.household = households[roll(2)]
                    context.insert(added)
                    errands.append(added)
                case 2: errand.priority = roll(5)
                case 3:  // moves its day folder
                    errand.due = Self.start.addingTimeInterval(Double(roll(60) - 10) * Self.day + 7_200)
                case 4: errand.household = households[roll(2)]
                case 5: context.delete(errand)
                default: errand.code = "R\(round).\(step)"
                }
            }
            if round % 6 == 5 {
                // One after every other document: the merge's last row.
                let latest = Errand(
                    title: "Latest \(round)", code: "L\(round)", priority: roll(5), done: false,
                    due: Self.start.addingTimeInterval(Double(100 + round) * Self.day), estimate: nil, note: nil,
                    tags: [])
                context.insert(latest)
            }
            try context.save()
            if round % 5 == 4 { try context.purge(deletedBefore: Date().addingTimeInterval(60)) }
            if round % 4 == 3 {
                // A hand edit the refresh finds: the indexes follow it as they follow saves.
                let stored = container.stores[0].documents(entity: "Errand")
                let edited = stored[roll(stored.count)]
                let file = folder("Errands/" + edited.path.relativePath)
                let text = try String(contentsOfFile: file, encoding: .utf8)
                guard case .integer(let priority)? = edited.content["priority"] else {
                    Issue.record("\(edited.path) has no integer priority")
                    return
                }
                try text.replacingOccurrences(
                    of: "\"priority\": \(priority)", with: "\"priority\": \((priority + 1) % 5)"
                )
                .write(toFile: file, atomically: false, encoding: .utf8)
                try container.refresh()
                // Models read before the edit would conflict when saved: read them again.
                context = ModelContext(container)
                households = try context.fetch(FetchDescriptor<Household>(sortBy: [SortDescriptor(\.name)]))
            }
            errands = try context.fetch(FetchDescriptor<Errand>())
            let followed = try answers(container, households: householdIDs)
            let built = try answers(try self.container(folder), households: householdIDs)
            #expect(followed == built, "round \(round)")
        }
    }

    @Test func countsAndIdentifiersMakeNoModels() throws {
        let folder = try TemporaryDirectory()
        do { _ = try populate(ModelContext(try container(folder))) }
        let context = ModelContext(try container(folder))
        #expect(try context.fetchCount(FetchDescriptor<Errand>(predicate: #Predicate { $0.done })) == 14)
        #expect(
            try context.fetchIdentifiers(FetchDescriptor<Errand>(predicate: #Predicate { $0.priority == 1 })).count == 8
        )
        #expect(context.registered.isEmpty)
        #expect(try context.fetch(FetchDescriptor<Errand>(fetchLimit: 3)).count == 3)
        #expect(context.registered.count == 3)
    }

    @Test func aggregatesSummarizeGroupsWithoutModels() throws {
        let folder = try TemporaryDirectory()
        let context = ModelContext(try container(folder))
        _ = try populate(context)
        let fresh = ModelContext(context.container)
        let byDone = try fresh.aggregate(.sum(\Errand.priority), groupedBy: \Errand.done)
        #expect(byDone.map(\.group) == [[.bool(false)], [.bool(true)]])
        #expect(byDone.map(\.count) == [26, 14])
        #expect(byDone.map(\.value) == [.integer(52), .integer(28)])
        #expect(
            byDone.map(\.description) == ["false: 26 documents, 52", "true: 14 documents, 28"], "rows print readably")
        #expect(
            try fresh.aggregate(Aggregation<Errand>.count) == [
                QueryAggregate.Row(group: [], count: 40, value: .integer(40))
            ])
        let latest = try fresh.aggregate(
            .max(\Errand.due), of: FetchDescriptor(predicate: #Predicate { $0.priority == 0 }))
        #expect(latest.first?.value == .date(Self.start.addingTimeInterval(35 * Self.day)))
        let average = try fresh.aggregate(.average(\Errand.priority))
        #expect(average.first?.value == .double(2))
        #expect(try fresh.aggregate(.min(\Errand.estimate)).first?.value == .null)
        #expect(fresh.registered.isEmpty)

        // Counted from the index's entries, and the same as counting the documents.
        context.delete(
            try #require(try context.fetch(FetchDescriptor<Errand>(predicate: #Predicate { $0.code == "E4" })).first))
        try context.save()
        let fromIndex = try fresh.aggregate(Aggregation<Errand>.count, groupedBy: \Errand.priority)
        let fromDocuments = try fresh.aggregate(
            Aggregation<Errand>.count, of: FetchDescriptor(predicate: #Predicate { $0.priority > -100 }),
            groupedBy: \Errand.priority)
        #expect(fromIndex == fromDocuments)
        #expect(fromIndex.map(\.count) == [8, 8, 8, 8, 7])
    }

    @Test func theTableIsInTheOrderOfTheDocumentsPaths() throws {
        var generator = SystemRandomNumberGenerator()
        let paths =
            try (0..<2_000).map { _ in
                try DocumentPath(
                    entity: "Timer",
                    day: Day(
                        year: 2025 + Int.random(in: 0...1, using: &generator),
                        month: Int.random(in: 1...12, using: &generator), day: Int.random(in: 1...28, using: &generator)
                    )!,
                    id: UUID())
            }
            + [
                // UUIDs that differ in one byte of either half, high bits set or not.
                "00000000-0000-0000-0000-000000000001", "00000000-0000-0000-0000-0000000000FF",
                "FF000000-0000-0000-0000-000000000000", "00000000-0000-0080-0000-000000000000",
                "00000000-0000-0000-8000-000000000000",
            ].map {
                try DocumentPath(entity: "Timer", day: Day(year: 2026, month: 1, day: 1)!, id: UUID(uuidString: $0)!)
            }
        let order = QueryIndexes.storeOrder(of: paths)
        #expect(order.map { paths[$0] } == paths.sorted())
    }
}

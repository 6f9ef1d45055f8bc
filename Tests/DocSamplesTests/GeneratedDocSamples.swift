// swift-format-ignore-file
// Generated from the docs' Swift samples; do not edit.
// Regenerate: bash scripts/update-doc-samples.sh
import Folio
import FolioJSON
import Foundation

// README.md, line 71

@Model
final class Habit {
    @Attribute(.unique) var id: UUID
    var name: String
    var createdAt: Date
    @Relationship(deleteRule: .cascade, inverse: \Check.habit) var checks: [Check] = []

    init(name: String) {
        id = UUID()
        self.name = name
        createdAt = Date()
    }
}

@Model
final class Check {
    var day: Date
    var habit: Habit?

    init(day: Date) { self.day = day }
}

// README.md, line 98
func sample_README_md_2() throws {

    let folder = FileManager.default.temporaryDirectory.appending(path: "Habits-\(UUID().uuidString)")
    let context = ModelContext(try ModelContainer(for: Habit.self, configurations: ModelConfiguration(url: folder)))
    let reading = Habit(name: "Read")
    context.insert(reading)
    reading.checks.append(Check(day: Date()))
    try context.save()  // one crash-safe transaction: Habit/<YYYY>/<MM>/<DD>/<UUID>.json and one Check

    let named = try context.fetch(FetchDescriptor<Habit>(predicate: #Predicate { $0.name == "Read" }, sortBy: [SortDescriptor(\.createdAt)]))
    assert(named.first?.checks.count == 1)
    try FileManager.default.removeItem(at: folder)
}

// README.md, line 127
func sample_README_md_3() throws {

    let folder = FileManager.default.temporaryDirectory.appending(path: "Habits-\(UUID().uuidString)")
    let context = ModelContext(try ModelContainer(for: Habit.self, configurations: ModelConfiguration(url: folder)))
    for name in ["Read", "Run", "Write"] {
        let habit = Habit(name: name)
        context.insert(habit)
        for day in 0..<3 { habit.checks.append(Check(day: Date(timeIntervalSinceNow: Double(-day) * 86_400))) }
    }
    try context.save()

    let reading = try context.fetch(FetchDescriptor<Habit>(predicate: #Predicate { $0.name == "Read" })).first!
    let readingID = reading.persistentModelID
    let checks = FetchDescriptor<Check>(predicate: #Predicate { $0.habit?.persistentModelID == readingID })
    print(try context.explain(checks))
    // Check: relationship key habit == 68ACC663-9616-49C6-82AC-4C188FE8536D
    // examined 3 of 9 documents, matched 3
    let count = try context.fetchCount(checks)
    assert(count == 3)

    let perHabit = try context.aggregate(.count, of: FetchDescriptor<Check>(), groupedBy: \Check.habit)
    assert(perHabit.map(\.count) == [3, 3, 3])
    try FileManager.default.removeItem(at: folder)
}

// README.md, line 358

func rename(_ habit: Habit, to name: String, in context: ModelContext) throws {
    habit.name = name
    do {
        try context.save()
    } catch {
        // The file changed on disk since it was read: start again from what is there now.
        if error.kind == .conflict { context.rollback() }
        throw error
    }
}

// README.md, line 381
func sample_README_md_5() throws {

    let text = #"{"name": "Tea", "minutes": 4, "strength": 0.75}"#
    let value = try JSONReader().read(text)
    let minutes = try Int(json: value["minutes"] ?? nil)
    print(try JSONWriter().string(for: value), minutes)
    // {
    //   "name": "Tea",
    //   "minutes": 4,
    //   "strength": 0.75
    // }
}

// README.md, line 397
func sample_README_md_6() throws {
    do {
        _ = try JSONReader().read("{\n  \"name\": \"Tea\",\n}", file: "Timer/2026/11/22/E621E1F8-C36C-495A-93FC-0C247A3E6E5F.json")
    } catch {
        print(error)
        // Timer/2026/11/22/E621E1F8-C36C-495A-93FC-0C247A3E6E5F.json:2:16: error: comma after the last member or element
        //       "name": "Tea",
        //                    ^
        // hint: remove the comma; JSON allows none before a closing bracket
    }
}

// README.md, line 453
func sample_README_md_7() throws {

    let started = Date(timeIntervalSinceReferenceDate: 817_032_600.25)
    let stored = started.json                      // "2026-11-22T09:30:00.25Z"
    let back = try Date(json: stored)
    assert(back == started)
    let tags: [String: [Int?]] = ["b": [1, nil], "a": []]
    print(try JSONWriter().string(for: tags.json))  // keys sorted: "a" first
}

// README.md, line 470
func sample_README_md_8() throws {

    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("Notes-\(UUID().uuidString)").path
    let manifest = StoreManifest(timeZone: TimeZone(identifier: "Europe/Berlin")!, schema: ["entities": ["Note": [:]]])
    let store = try DocumentStore.create(at: folder, manifest: manifest)

    // One transaction: all of it lands, or (on any error or crash) none of it.
    let note = Document(entity: "Note", id: UUID(), partitionDate: Date(), content: ["text": "Buy tea"])
    try store.commit([.put(note, basedOn: nil)])

    // Reads come from the catalog; pass the version you read back with your change.
    let stored = store.document(entity: "Note", id: note.id)!
    var edited = note
    edited.content["text"] = "Buy green tea"
    do {
        try store.commit([.put(edited, basedOn: stored.version)])
    } catch {
        // A conflict: someone changed the file since we read it, and nothing was written.
        // Read it again and retry. Any other error is thrown on as it is.
        guard error.kind == .conflict else { throw error }
        try store.refresh()
    }
    try store.close()  // writes the cache, so the next open reads nothing unchanged
    try FileManager.default.removeItem(atPath: folder)
}

// docs/concurrency.md, line 17
func sample_docs_concurrency_md_1() throws {

    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("Notes-\(UUID().uuidString)")
    let container = try ModelContainer(for: ConcurrencyNote.self, configurations: ModelConfiguration(url: folder, durability: .none))
    let importer = Importer(modelContainer: container)  // its own context, on its own actor
    let background = ModelContext(container)            // or a context made for one task
    background.insert(ConcurrencyNote(text: "from a task"))
    try background.save()
    // From async code: try await importer.importNotes(["from an actor"])
    _ = importer
    try FileManager.default.removeItem(at: folder)
}

// docs/concurrency.md, line 32

@Model
final class ConcurrencyNote {
    var text: String
    init(text: String) { self.text = text }
}

@ModelActor
actor Importer {
    func importNotes(_ texts: [String]) throws {
        for text in texts { modelContext.insert(ConcurrencyNote(text: text)) }
        try modelContext.save()
    }
}

// docs/live.md, line 29

@Model final class Lodging {
    @Attribute(.preserveValueOnDeletion) var address: String
    var nights: Int
    var checkIn: Date
    init(address: String, nights: Int, checkIn: Date) {
        self.address = address
        self.nights = nights
        self.checkIn = checkIn
    }
}

/// The changes others made since `token`, and the token to keep for next time.
func changes(in context: ModelContext, after token: DefaultHistoryToken?) throws -> DefaultHistoryToken? {
    var descriptor = HistoryDescriptor<DefaultHistoryTransaction>()
    if let token {
        descriptor.predicate = #Predicate { $0.token > token && $0.author != "app" }
    }
    let transactions = try context.fetchHistory(descriptor)
    for transaction in transactions {
        for change in transaction.changes {
            switch change {
            case .insert(let insert as DefaultHistoryInsert<Lodging>):
                print("new lodging", insert.changedPersistentIdentifier)
            case .update(let update as DefaultHistoryUpdate<Lodging>):
                print("changed", update.updatedAttributes.count, "properties by", transaction.author ?? "nobody")
            case .delete(let delete as DefaultHistoryDelete<Lodging>):
                print("gone:", delete.tombstone[\.address] as? String ?? "?")
            default:
                break
            }
        }
    }
    return transactions.last?.token ?? token
}

// docs/live.md, line 143

@Model final class Delivery {
    var address: String
    init(address: String) { self.address = address }
}

@MainActor func deliveriesFromTheWidget(_ container: ModelContainer) throws -> HistoryObserver {
    let observer = try HistoryObserver(
        observedModels: [Delivery.self], authors: ["widget"], modelContainer: container)
    // Observe `observer.eventCounter`, then fetch the history after the tokens you kept.
    return observer
}

// docs/live.md, line 169

@Model final class Chore {
    var title: String
    var due: Date
    var done: Bool
    init(title: String, due: Date, done: Bool = false) {
        self.title = title
        self.due = due
        self.done = done
    }
}

@MainActor func watchChores(in container: ModelContainer) throws -> ResultsObserver<Chore, Never> {
    let open = try ResultsObserver(
        filterBy: #Predicate<Chore> { !$0.done }, sortBy: [SortDescriptor(\.due)],
        modelContext: container.mainContext)
    withObservationTracking {
        _ = open.results
    } onChange: {
        print("the open chores are about to change")
    }
    return open
}

// docs/live.md, line 228

@Model final class Novel {
    var title: String
    var genre: String
    init(title: String, genre: String) {
        self.title = title
        self.genre = genre
    }
}

@MainActor func printShelves(of container: ModelContainer) throws {
    let shelves = try ResultsObserver<Novel, String>(
        sortBy: [SortDescriptor(\.title)], sectionBy: \.genre, modelContext: container.mainContext)
    guard let sections = shelves.sections else { return }
    for shelf in sections {
        print(shelf.title, shelf.map(\.title))
    }
}

// docs/models.md, line 11

@Model
final class Trip {
    @Attribute(.unique) var id: UUID
    var name: String
    var start: Date
    var budget: Decimal?
    var mode: TravelMode = TravelMode.train
    @Relationship(deleteRule: .cascade, inverse: \Stop.trip)
    var stops: [Stop] = []
    @Attribute(.externalStorage) var map: Data?
    @Transient var isExpanded = false

    var stopCount: Int { stops.count }  // computed: not stored

    init(name: String, start: Date) {
        self.id = UUID()
        self.name = name
        self.start = start
    }
}

@Model
final class Stop {
    var place: String
    var arrival: Date
    var trip: Trip?

    init(place: String, arrival: Date) {
        self.place = place
        self.arrival = arrival
    }
}

enum TravelMode: String, Codable {
    case train, bike, walk
}

// docs/models.md, line 102
func sample_docs_models_md_2() throws {

    let folder = FileManager.default.temporaryDirectory.appending(path: "Trips-\(UUID().uuidString)")
    let container = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: folder))
    let context = ModelContext(container)

    let trip = Trip(name: "Alps", start: Date(timeIntervalSinceReferenceDate: 817_032_600))
    context.insert(trip)
    trip.stops.append(Stop(place: "Zürich", arrival: trip.start))  // inserted with its trip
    try context.save()  // one transaction: Trip/2026/11/22/<id>.json and Stop/2026/11/22/<id>.json

    let upcoming = try context.fetch(FetchDescriptor<Trip>(
        predicate: #Predicate { trip in trip.stops.contains { $0.place == "Zürich" } },
        sortBy: [SortDescriptor(\.start)]))
    assert(upcoming.first === trip)
    try FileManager.default.removeItem(at: folder)
}

// docs/models.md, line 194
@Model class Journey {
    var name: String
    init(name: String) { self.name = name }
}

@Model final class BusinessJourney: Journey {
    var perDiem: Double
    init(name: String, perDiem: Double) {
        self.perDiem = perDiem
        super.init(name: name)
    }
}

// docs/models.md, line 209
func sample_docs_models_md_4() throws {

    let folder = FileManager.default.temporaryDirectory.appending(path: "Journeys-\(UUID().uuidString)")
    let context = ModelContext(try ModelContainer(
        for: Journey.self, BusinessJourney.self, configurations: ModelConfiguration(url: folder, durability: .none)))
    context.insert(Journey(name: "Weekend"))
    context.insert(BusinessJourney(name: "Summit", perDiem: 80))
    try context.save()
    let all = try context.fetch(FetchDescriptor<Journey>(sortBy: [SortDescriptor(\.name)]))
    assert(all.map { $0 is BusinessJourney } == [true, false])  // Summit, Weekend
    let paid = try context.fetch(FetchDescriptor<Journey>(
        predicate: #Predicate { ($0 as? BusinessJourney)?.perDiem ?? 0 > 50 }))
    assert(paid.map(\.name) == ["Summit"])
    try FileManager.default.removeItem(at: folder)
}

// docs/models.md, line 384
func sample_docs_models_md_5() throws {

    let folder = FileManager.default.temporaryDirectory.appending(path: "Trips-\(UUID().uuidString)")
    let context = ModelContext(try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: folder, durability: .none)))
    let trip = Trip(name: "Coast", start: Date())
    context.insert(trip)
    try context.save()

    context.delete(trip)
    try context.save()                                   // the file stays, stamped "$deleted"
    var everything = FetchDescriptor<Trip>()
    everything.includeDeleted = true
    let deleted = try context.fetch(everything).filter { $0.deletedAt != nil }
    context.restore(deleted[0])
    try context.save()                                   // back, without the stamp
    let remaining = try context.fetchCount(FetchDescriptor<Trip>())
    assert(remaining == 1)
    try FileManager.default.removeItem(at: folder)
}

// docs/models.md, line 413

enum PantryV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Jar.self] }

    @Model final class Jar {
        var label: String
        var grams: Int
        init(label: String, grams: Int) {
            self.label = label
            self.grams = grams
        }
    }
}

enum PantryV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Jar.self] }

    @Model final class Jar {
        var label: String
        var grams: Int
        var kilograms: Double = 0
        init(label: String, grams: Int) {
            self.label = label
            self.grams = grams
        }
    }
}

enum PantryPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [PantryV1.self, PantryV2.self] }
    static var stages: [MigrationStage] { [weighInKilograms] }

    /// After the new property is added, each jar's weight is set in kilograms.
    static let weighInKilograms = MigrationStage.custom(
        fromVersion: PantryV1.self, toVersion: PantryV2.self, willMigrate: nil,
        didMigrate: { context in
            for jar in try context.fetch(FetchDescriptor<PantryV2.Jar>()) { jar.kilograms = Double(jar.grams) / 1000 }
            try context.save()
        })
}

// docs/models.md, line 460
func sample_docs_models_md_7() throws {

    let pantry = FileManager.default.temporaryDirectory.appending(path: "Pantry-\(UUID().uuidString)")
    do {
        let old = ModelContext(try ModelContainer(for: PantryV1.schema, configurations: [ModelConfiguration(url: pantry)]))
        old.insert(PantryV1.Jar(label: "Rice", grams: 1500))
        try old.save()
    }
    let migrated = try ModelContainer(
        for: PantryV2.Jar.self, migrationPlan: PantryPlan.self, configurations: ModelConfiguration(url: pantry))
    let jars = try ModelContext(migrated).fetch(FetchDescriptor<PantryV2.Jar>())
    assert(jars.map(\.kilograms) == [1.5])
    try FileManager.default.removeItem(at: pantry)
}

// docs/past.md, line 75

@Model
final class Reading {
    var meter: String
    var value: Double
    init(meter: String, value: Double) {
        self.meter = meter
        self.value = value
    }
}

/// The readings the store held at a tag, without touching the store or the repository.
func readings(inStoreAt folder: URL, asOf tag: String) throws -> [Reading] {
    let configuration = ModelConfiguration(url: folder, revision: tag)
    let container = try ModelContainer(for: Reading.self, configurations: configuration)
    return try ModelContext(container).fetch(FetchDescriptor<Reading>(sortBy: [SortDescriptor(\.meter)]))
}

// docs/past.md, line 274

/// Prints who changed what of a record, newest first.
func printPast(of id: UUID, inStoreAt folder: String) throws {
    let history = try RecordHistory(of: id, inStoreAt: folder)
    for change in history.changes {
        let names = change.properties.map(\.name).joined(separator: ", ")
        print(change.commit.prefix(7), change.authorName, change.kind.rawValue, names)
    }
    for property in history.blame() {
        print(property.name, property.change?.commit.prefix(7) ?? "?")
    }
}

// docs/past.md, line 296

/// Prints what the last commit changed in a store, record by record.
func printLastCommit(ofStoreAt folder: String) throws {
    let diff = try StoreDiff(inStoreAt: folder, from: "HEAD~1", to: "HEAD")
    for record in diff.records {
        let names = record.properties.map(\.name).joined(separator: ", ")
        print(record.kind.rawValue, record.entity, record.id, names)
    }
}

// docs/past.md, line 316

/// Takes the name of a record back to what it was one commit ago, and writes it.
func undoRename(of id: UUID, inStoreAt folder: String) throws {
    let store = try DocumentStore.open(at: folder)
    let restore = try RecordRestore(of: id, in: store, from: "HEAD~1", properties: ["name"])
    for change in restore.properties {
        print(change.name, change.old ?? "none", "→", change.new ?? "none")
    }
    try restore.commit(author: "undo")
}

/// The same on a model: a pending change, written by the next save.
func undoRename<Model: PersistentModel>(of model: Model, in context: ModelContext) throws {
    try context.restore(model, from: "HEAD~1", properties: ["name"])
    try context.save()
}

// docs/queries.md, line 13

@Model
final class Session {
    #Index<Session>([\.state])
    @Attribute(.unique) var id: UUID
    var start: Date
    var end: Date?
    var state: String
    var minutes: Int
    var tags: [String]

    init(start: Date, state: String, minutes: Int, tags: [String] = []) {
        id = UUID()
        self.start = start
        self.state = state
        self.minutes = minutes
        self.tags = tags
    }
}

// docs/queries.md, line 37
func sample_docs_queries_md_2() throws {

    let folder = FileManager.default.temporaryDirectory.appending(path: "Sessions-\(UUID().uuidString)")
    let context = ModelContext(try ModelContainer(for: Session.self, configurations: ModelConfiguration(url: folder)))
    let day = Date(timeIntervalSince1970: 1_793_500_000)
    for hour in 0..<48 {
        let state = ["completed", "completed", "abandoned", "paused"][hour % 4]
        context.insert(Session(start: day.addingTimeInterval(Double(hour) * 3_600), state: state, minutes: 25 + hour % 20, tags: hour % 5 == 0 ? ["deep"] : []))
    }
    try context.save()

    // An index (#Index on state) answers this; the count reads no document at all.
    let paused = FetchDescriptor<Session>(predicate: #Predicate { $0.state == "paused" })
    let pausedCount = try context.fetchCount(paused)
    assert(pausedCount == 12)

    // A date range on the first required Date reads only the day folders it spans.
    let from = day.addingTimeInterval(86_400)
    let recent = FetchDescriptor<Session>(predicate: #Predicate { $0.start >= from && $0.tags.contains("deep") }, sortBy: [SortDescriptor(\.start, order: .reverse)])
    print(try context.explain(recent))
    let deep = try context.fetch(recent)
    assert(deep.count == 5 && deep[0].start > deep[1].start)

    // The 10 latest: a limited sort on a date walks an ordered index and stops after 10.
    let latest = try context.fetch(FetchDescriptor<Session>(sortBy: [SortDescriptor(\.start, order: .reverse)], fetchLimit: 10))
    assert(latest.count == 10)

    // Aggregates SwiftData lacks, grouped, without making models.
    let minutes = try context.aggregate(.sum(\Session.minutes), groupedBy: \Session.state)
    assert(minutes.map(\.group) == [[.string("abandoned")], [.string("completed")], [.string("paused")]])
    try FileManager.default.removeItem(at: folder)
}

/// Every statement sample, so a test can run them all.
func allDocSamples() -> [(name: String, run: () throws -> Void)] {
    [("sample_README_md_2", sample_README_md_2), ("sample_README_md_3", sample_README_md_3), ("sample_README_md_5", sample_README_md_5), ("sample_README_md_6", sample_README_md_6), ("sample_README_md_7", sample_README_md_7), ("sample_README_md_8", sample_README_md_8), ("sample_docs_concurrency_md_1", sample_docs_concurrency_md_1), ("sample_docs_models_md_2", sample_docs_models_md_2), ("sample_docs_models_md_4", sample_docs_models_md_4), ("sample_docs_models_md_5", sample_docs_models_md_5), ("sample_docs_models_md_7", sample_docs_models_md_7), ("sample_docs_queries_md_2", sample_docs_queries_md_2)]
}

import Folio
import FolioTestSupport
import Foundation
import Synchronization
import Testing

@Model final class Parcel {
    var label: String
    init(label: String) { self.label = label }
}

@Model final class Courier {
    var name: String
    init(name: String) { self.name = name }
}

/// `HistoryObserver` (iOS 27) as an app uses it: made on the main actor, it counts the
/// transactions other programs write into the container's stores, which the container's
/// file watcher finds and announces with `ModelContainer.remoteChange`.
@MainActor struct HistoryObserverTests {
    func container(_ folder: TemporaryDirectory, watching: Bool = true) throws -> ModelContainer {
        var configuration = ModelConfiguration(url: folder.url, durability: .none)
        configuration.watchesFiles = watching
        return try ModelContainer(for: Parcel.self, Courier.self, configurations: configuration)
    }

    /// Saves a model from another program: a container of its own over the same folder, which
    /// this one sees only on disk.
    func save(_ model: some PersistentModel, in folder: TemporaryDirectory, author: String? = nil) throws {
        let elsewhere = ModelContext(try container(folder, watching: false))
        elsewhere.author = author
        elsewhere.insert(model)
        try elsewhere.save()
    }

    @Test func anotherProgramsSaveCountsOneEventAndMovesTheTokensToIt() async throws {
        let folder = try TemporaryDirectory()
        let container = try container(folder)
        let context = ModelContext(container)
        context.insert(Parcel(label: "before the observer"))
        try context.save()
        let observer = try HistoryObserver(observedModels: [Parcel.self], modelContainer: container)
        #expect(observer.eventCounter == 0)
        #expect(observer.modelContainer === container)
        let start = try #require(observer.historyTokens.values.first as? DefaultHistoryToken)

        try save(Parcel(label: "from the widget"), in: folder, author: "widget")

        #expect(await eventually { observer.eventCounter == 1 })
        let token = try #require(observer.historyTokens.values.first as? DefaultHistoryToken)
        #expect(token > start)
        #expect(token.storeIdentifier == observer.historyTokens.keys.first, "tokens are kept by their store")
        // The app then reads what arrived after the token it kept: the widget's transaction alone.
        let arrived = try context.fetchHistory(
            HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token > start }))
        #expect(arrived.map(\.author) == ["widget"])
        #expect(arrived.last?.token == token)
    }

    @Test func onlyTheObservedModelsAndAuthorsCount() async throws {
        let folder = try TemporaryDirectory()
        let container = try container(folder)
        let observer = try HistoryObserver(
            observedModels: [Parcel.self], authors: ["widget"], modelContainer: container)

        // Each change is waited for until the observer has read past it, so each is judged alone.
        func readPast() async -> Bool {
            let before = observer.historyTokens.values.compactMap { $0 as? DefaultHistoryToken }
            return await eventually {
                observer.historyTokens.values.compactMap { $0 as? DefaultHistoryToken } != before
            }
        }
        try save(Courier(name: "Ann"), in: folder, author: "widget")
        #expect(await readPast())
        #expect(observer.eventCounter == 0, "a Courier is not observed")
        try save(Parcel(label: "from the app"), in: folder, author: "app")
        #expect(await readPast())
        #expect(observer.eventCounter == 0, "the app is not an observed author")
        try save(Parcel(label: "from the widget"), in: folder, author: "widget")
        #expect(await eventually { observer.eventCounter == 1 })
    }

    @Test func tokensKeptFromAnEarlierObserverStartTheNextOneThere() async throws {
        let folder = try TemporaryDirectory()
        let container = try container(folder)
        let kept = try HistoryObserver(modelContainer: container).historyTokens
        try save(Parcel(label: "while the app was closed"), in: folder)

        let observer = try HistoryObserver(historyTokens: kept, modelContainer: container)
        #expect(observer.eventCounter == 0, "nothing counts before the next remote change")
        try save(Parcel(label: "now"), in: folder)
        #expect(await eventually { observer.eventCounter == 1 })
        let token = try #require(observer.historyTokens.values.first as? DefaultHistoryToken)
        let keptToken = try #require(kept.values.first as? DefaultHistoryToken)
        let after = try ModelContext(container).fetchHistory(
            HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token > keptToken }))
        #expect(after.count == 2, "both saves lie after the kept token")
        #expect(after.last?.token == token)
    }

    @Test func aHandEditPostsTheContainersRemoteChangeAndItsOwnSaveDoesNot() async throws {
        let folder = try TemporaryDirectory()
        let container = try container(folder)
        let posts = Mutex(0)
        let subscription = NotificationCenter.default.addObserver(
            forName: ModelContainer.remoteChange, object: container, queue: nil
        ) { _ in posts.withLock { $0 += 1 } }
        defer { NotificationCenter.default.removeObserver(subscription) }
        let context = ModelContext(container)
        let parcel = Parcel(label: "Books")
        context.insert(parcel)
        try context.save()

        let url = try #require(
            FileManager.default.enumerator(at: folder.url.appending(path: "Parcel"), includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.first { $0.lastPathComponent == "\(parcel.persistentModelID.id).json" })
        let text = try String(contentsOf: url, encoding: .utf8)
        try text.replacingOccurrences(of: "Books", with: "Records").write(to: url, atomically: true, encoding: .utf8)

        #expect(await eventually { posts.withLock { $0 } >= 1 })
        #expect(try context.fetch(FetchDescriptor<Parcel>()).map(\.label) == ["Records"])
        // The hand edit is in the history as a transaction of its own, by "external".
        let history = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(history.map(\.author) == [nil, "external"])
        let before = posts.withLock { $0 }
        parcel.label = "Maps"
        try context.save()
        try await Task.sleep(for: .milliseconds(300))
        #expect(posts.withLock { $0 } == before, "the container's own save is not a remote change")
    }
}

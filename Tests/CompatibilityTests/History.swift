import Folio
import FolioTestSupport
import Foundation
import Testing

@Model final class Lodging {
    @Attribute(.preserveValueOnDeletion) var address: String
    var nights: Int
    var checkIn: Date
    init(address: String, nights: Int, checkIn: Date = Date(timeIntervalSinceReferenceDate: 790_000_000)) {
        self.address = address
        self.nights = nights
        self.checkIn = checkIn
    }
}

/// SwiftData's history API as apps call it (the shapes of Apple's "Track model changes with
/// SwiftData history" sample and of apps that keep a token across launches).
struct HistoryCompatibilityTests {
    /// The widget's changes since the app last looked, as the sample finds them.
    func findTransactions(in context: ModelContext, after token: DefaultHistoryToken?, author: String) throws
        -> [DefaultHistoryTransaction]
    {
        var historyDescriptor = HistoryDescriptor<DefaultHistoryTransaction>()
        if let token {
            historyDescriptor.predicate = #Predicate { transaction in
                (transaction.token > token) && (transaction.author == author)
            }
        }
        return try context.fetchHistory(historyDescriptor)
    }

    @Test func appCodeReadsAnotherAuthorsChangesSinceAKeptToken() throws {
        let folder = try TemporaryDirectory()
        let container = try ModelContainer(
            for: Lodging.self, configurations: ModelConfiguration(url: folder.url, durability: .none))
        let app = ModelContext(container)
        app.author = "app"
        let widget = ModelContext(container)
        widget.author = "widget"

        let inn = Lodging(address: "1 Harbour Road", nights: 2)
        widget.insert(inn)
        try widget.save()
        let kept = try JSONEncoder().encode(
            try #require(try app.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).last?.token))

        let widgetInn = try #require(try widget.fetch(FetchDescriptor<Lodging>()).first)
        widgetInn.nights = 3
        try widget.save()
        app.insert(Lodging(address: "9 Hill Street", nights: 1))
        try app.save()
        widget.delete(widgetInn)
        try widget.save()

        let token = try JSONDecoder().decode(DefaultHistoryToken.self, from: kept)
        var inserted = 0
        var updated: [PersistentIdentifier] = []
        var deletedAddresses: [String] = []
        for transaction in try findTransactions(in: app, after: token, author: "widget") {
            for change in transaction.changes {
                let modelID = change.changedPersistentIdentifier
                switch change {
                case .insert(_ as DefaultHistoryInsert<Lodging>):
                    inserted += 1
                case .update(let update as DefaultHistoryUpdate<Lodging>):
                    #expect(update.updatedAttributes.count == 1)
                    updated.append(modelID)
                case .delete(let deletion as DefaultHistoryDelete<Lodging>):
                    if let address = deletion.tombstone[\.address] as? String { deletedAddresses.append(address) }
                default:
                    break
                }
            }
        }
        #expect(inserted == 0, "the insert came before the kept token")
        #expect(updated == [inn.persistentModelID])
        #expect(deletedAddresses == ["1 Harbour Road"])

        var old = HistoryDescriptor<DefaultHistoryTransaction>()
        old.predicate = #Predicate { $0.token < token }
        try app.deleteHistory(old)
        do {
            var descriptor = HistoryDescriptor<DefaultHistoryTransaction>()
            descriptor.fetchLimit = 1
            #expect(try app.fetchHistory(descriptor).first?.token == token)
        }
    }

    @Test func anExpiredTokenIsCaughtAsSwiftDataErrorHistoryTokenExpired() throws {
        let folder = try TemporaryDirectory()
        let context = ModelContext(
            try ModelContainer(
                for: Lodging.self, configurations: ModelConfiguration(url: folder.url, durability: .none)))
        for nights in 1...3 {
            context.insert(Lodging(address: "\(nights)", nights: nights))
            try context.save()
        }
        let history = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        let stale = history[0].token
        let latest = history[2].token
        try context.deleteHistory(
            HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token < latest }))
        do {
            _ = try findTransactions(in: context, after: stale, author: "x")
            Issue.record("a deleted token's successors were fetched")
        } catch {
            #expect((error as? SwiftDataError) == .historyTokenExpired)
        }
    }
}

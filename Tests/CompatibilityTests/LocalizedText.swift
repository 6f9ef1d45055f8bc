import Folio
import FolioTestSupport
import Foundation
import Testing

@Model
final class Contact {
    var name: String
    init(name: String) { self.name = name }
}

/// The localized text methods search fields use in `#Predicate`, which Foundation on
/// Linux cannot expand by itself.
struct LocalizedTextTests {
    func context(_ folder: TemporaryDirectory) throws -> ModelContext {
        let context = ModelContext(
            try ModelContainer(
                for: Contact.self, configurations: ModelConfiguration(url: folder.url, durability: .none)))
        for name in ["Zoë Adams", "zoe baker", "Chloé", "Bob"] { context.insert(Contact(name: name)) }
        try context.save()
        return context
    }

    @Test func localizedStandardContainsIgnoresCaseAndDiacriticsOnDocuments() throws {
        let folder = try TemporaryDirectory()
        let context = try context(folder)
        let search = "ZOE"
        let predicate = #Predicate<Contact> { $0.name.localizedStandardContains(search) }
        let found = try context.fetch(FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.name)]))
        #expect(found.map(\.name) == ["Zoë Adams", "zoe baker"])
        // The same predicate evaluated on the models agrees.
        let all = try context.fetch(FetchDescriptor<Contact>())
        #expect(try all.filter { try predicate.evaluate($0) }.map(\.name).sorted() == ["Zoë Adams", "zoe baker"])
        let plan = try context.explain(FetchDescriptor(predicate: predicate))
        #expect(plan.fallback == nil, "translated to the query engine: \(plan)")
    }

    @Test func caseInsensitiveAndLocalizedCompareRunInPredicates() throws {
        let folder = try TemporaryDirectory()
        let context = try context(folder)
        let same = ComparisonResult.orderedSame
        let caseless = FetchDescriptor(predicate: #Predicate<Contact> { $0.name.caseInsensitiveCompare("BOB") == same })
        #expect(try context.fetch(caseless).map(\.name) == ["Bob"])
        #expect(try context.explain(caseless).fallback == nil, "runs on documents as a case-insensitive equality")
        let others = FetchDescriptor(predicate: #Predicate<Contact> { $0.name.caseInsensitiveCompare("BOB") != same })
        #expect(try context.fetchCount(others) == 3)
        let before = ComparisonResult.orderedAscending
        let early = try context.fetch(
            FetchDescriptor(predicate: #Predicate<Contact> { $0.name.localizedCompare("C") == before }))
        #expect(early.map(\.name) == ["Bob"])
    }

    @Test func aLocalizedStandardSortOrdersAsDarwinDoesOnDocumentsAndOnModels() throws {
        let folder = try TemporaryDirectory()
        let context = ModelContext(
            try ModelContainer(
                for: Contact.self, configurations: ModelConfiguration(url: folder.url, durability: .none)))
        for name in ["b", "C", "a10", "A", "a9", "é", "f", "e"] { context.insert(Contact(name: name)) }
        try context.save()
        let darwin = ["A", "a9", "a10", "b", "C", "e", "é", "f"]
        let sorted = FetchDescriptor<Contact>(sortBy: [SortDescriptor(\.name, comparator: .localizedStandard)])
        #expect(try context.fetch(sorted).map(\.name) == darwin)
        #expect(try context.explain(sorted).fallback == nil, "sorted by the query engine")
        let backwards = FetchDescriptor<Contact>(sortBy: [
            SortDescriptor(\.name, comparator: .localizedStandard, order: .reverse)
        ])
        #expect(try context.fetch(backwards).map(\.name) == darwin.reversed())
        // A predicate the engine cannot translate makes the sort run on the models: the same order.
        let onModels = FetchDescriptor<Contact>(
            predicate: #Predicate { $0.name.unicodeScalars.count > 0 },
            sortBy: [SortDescriptor(\.name, comparator: .localizedStandard)])
        #expect(try context.explain(onModels).fallback != nil)
        #expect(try context.fetch(onModels).map(\.name) == darwin)
        let localized = FetchDescriptor<Contact>(sortBy: [SortDescriptor(\.name, comparator: .localized)])
        #expect(
            try context.fetch(localized).map(\.name) == darwin.sorted { $0.localizedCompare($1) == .orderedAscending })
        // The lexical order stays Swift's, by code point.
        let lexical = FetchDescriptor<Contact>(sortBy: [SortDescriptor(\.name, comparator: .lexical)])
        #expect(try context.fetch(lexical).map(\.name) == darwin.sorted())
    }
}

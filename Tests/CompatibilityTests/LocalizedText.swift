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
        let context = ModelContext(try ModelContainer(for: Contact.self, configurations: ModelConfiguration(url: folder.url, durability: .none)))
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
        let early = try context.fetch(FetchDescriptor(predicate: #Predicate<Contact> { $0.name.localizedCompare("C") == before }))
        #expect(early.map(\.name) == ["Bob"])
    }
}

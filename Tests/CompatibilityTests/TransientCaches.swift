import Folio
import FolioTestSupport
import Foundation
import Testing

/// A model with a private cache, declared as apps do: an optional `@Transient` with no
/// initial value, which Swift starts at `nil`.
@Model
final class Poster {
    var title: String
    @Transient private var initialsCache: String?

    init(title: String) { self.title = title }

    /// The title's initials, worked out once per instance.
    var initials: String {
        if let initialsCache { return initialsCache }
        let made = String(title.split(separator: " ").compactMap(\.first))
        initialsCache = made
        return made
    }
}

struct TransientCacheTests {
    @Test func aTransientOptionalWithoutAnInitialValueStartsAtNilAndIsNotStored() throws {
        let folder = try TemporaryDirectory()
        let container = try ModelContainer(
            for: Poster.self, configurations: ModelConfiguration(url: folder.url, durability: .none))
        let context = ModelContext(container)
        let poster = Poster(title: "North by Northwest")
        #expect(poster.initials == "NbN")
        context.insert(poster)
        try context.save()
        #expect(container.schema.entity(named: "Poster")?.properties.map(\.name) == ["title"])
        let fetched = try #require(try ModelContext(container).fetch(FetchDescriptor<Poster>()).first)
        #expect(fetched.initials == "NbN")
    }
}

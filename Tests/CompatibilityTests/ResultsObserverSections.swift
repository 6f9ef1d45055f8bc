import Folio
import FolioTestSupport
import Foundation
import Testing

@Model
final class ShelvedNovel {
    var title: String
    var genre: String
    var series: String?
    var pages: Int
    init(title: String, genre: String, series: String? = nil, pages: Int) {
        self.title = title
        self.genre = genre
        self.series = series
        self.pages = pages
    }
}

/// `ResultsObserver<Element, SectionTitle>` as iOS 27 documents it, written as app code:
/// sections by a key path, `filterBy` and `sortBy` set after the observer is made.
@MainActor
struct ResultsObserverSections {
    /// A store of five novels in two genres, two of them in a series.
    func library() throws -> (TemporaryDirectory, ModelContainer) {
        let folder = try TemporaryDirectory()
        let container = try ModelContainer(
            for: ShelvedNovel.self, configurations: ModelConfiguration(url: folder.url, durability: .none))
        let context = ModelContext(container)
        context.insert(ShelvedNovel(title: "Dune", genre: "SF", series: "Dune", pages: 412))
        context.insert(ShelvedNovel(title: "Emma", genre: "Classic", pages: 474))
        context.insert(ShelvedNovel(title: "Neuromancer", genre: "SF", series: "Sprawl", pages: 271))
        context.insert(ShelvedNovel(title: "Persuasion", genre: "Classic", pages: 249))
        context.insert(ShelvedNovel(title: "Hyperion", genre: "SF", pages: 482))
        try context.save()
        return (folder, container)
    }

    @Test func sectionsGroupTheResultsByTheKeyPathAndFollowAChange() async throws {
        let (folder, container) = try library()
        defer { withExtendedLifetime(folder) {} }
        let observer = try ResultsObserver<ShelvedNovel, String>(
            sortBy: [SortDescriptor(\.title)], sectionBy: \.genre, modelContext: container.mainContext)
        let sections = try #require(observer.sections)
        #expect(sections.sectionTitles == ["Classic", "SF"])
        #expect(sections.map(\.id) == ["Classic", "SF"])
        #expect(sections[sectionTitle: "SF"]?.map(\.title) == ["Dune", "Hyperion", "Neuromancer"])
        #expect(sections[sectionTitle: "Classic"]?.map(\.title) == ["Emma", "Persuasion"])
        #expect(sections[sectionTitle: "Poetry"] == nil)
        #expect(observer.results.map(\.title) == ["Emma", "Persuasion", "Dune", "Hyperion", "Neuromancer"])
        #expect(observer.sortBy?.count == 1, "the section's own order is not the one asked for")

        // Another context moves Emma to SF: the sections follow.
        let other = ModelContext(container)
        let emma = try #require(
            try other.fetch(FetchDescriptor<ShelvedNovel>(predicate: #Predicate { $0.title == "Emma" })).first)
        emma.genre = "SF"
        try other.save()
        #expect(await eventually { observer.sections?[sectionTitle: "SF"]?.count == 4 })
        #expect(observer.sections?[sectionTitle: "SF"]?.map(\.title) == ["Dune", "Emma", "Hyperion", "Neuromancer"])
        #expect(observer.sections?[sectionTitle: "Classic"]?.map(\.title) == ["Persuasion"])
    }

    @Test func anOptionalSectionKeyPathPutsTheModelsWithoutAValueTogether() throws {
        let (folder, container) = try library()
        defer { withExtendedLifetime(folder) {} }
        let observer = try ResultsObserver(
            fetchDescriptor: FetchDescriptor<ShelvedNovel>(sortBy: [SortDescriptor(\.title)]), sectionBy: \.series,
            modelContainer: container)
        let sections = try #require(observer.sections)
        #expect(Set(sections.sectionTitles) == ["", "Dune", "Sprawl"])
        #expect(sections[sectionTitle: ""]?.map(\.title) == ["Emma", "Hyperion", "Persuasion"])
        #expect(sections.reduce(0) { $0 + $1.count } == 5)
    }

    @Test func settingFilterByOrSortByFetchesAgainBeforeTheSetterReturns() throws {
        let (folder, container) = try library()
        defer { withExtendedLifetime(folder) {} }
        let observer = try ResultsObserver(sortBy: [SortDescriptor(\ShelvedNovel.title)], modelContainer: container)
        #expect(observer.sections == nil, "no sections without a sectionBy")
        #expect(observer.results.count == 5)

        observer.filterBy = #Predicate { $0.pages > 400 }
        #expect(observer.results.map(\.title) == ["Dune", "Emma", "Hyperion"])
        #expect(observer.lastChange.removed.count == 2)
        #expect(observer.fetchDescriptor.predicate != nil)

        observer.sortBy = [SortDescriptor(\.pages, order: .reverse)]
        #expect(observer.results.map(\.title) == ["Hyperion", "Emma", "Dune"])

        observer.filterBy = nil
        #expect(observer.results.map(\.pages) == [482, 474, 412, 271, 249])
        #expect(observer.error == nil)
    }

    @Test func sortByOnASectionedObserverKeepsTheSectionsTogether() throws {
        let (folder, container) = try library()
        defer { withExtendedLifetime(folder) {} }
        let observer = try ResultsObserver(
            filterBy: nil, sortBy: nil, sectionBy: \ShelvedNovel.genre, modelContext: ModelContext(container))
        observer.sortBy = [SortDescriptor(\.pages)]
        #expect(observer.sections?.sectionTitles == ["Classic", "SF"])
        #expect(observer.sections?[sectionTitle: "SF"]?.map(\.pages) == [271, 412, 482])
        #expect(observer.fetchDescriptor.sortBy.count == 2, "the section's order first, then the one asked for")
    }
}

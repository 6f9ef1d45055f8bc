/// Results grouped into sections by a property, as `ResultsObserver.sections` gives them:
/// SwiftData's `SectionedResults` (iOS 27). A collection of `ResultsSection`s, in the order
/// their first models appear in the results.
public struct SectionedResults<Element: PersistentModel, SectionTitle: Hashable>: RandomAccessCollection {
    /// The sections, in order.
    private let sections: [ResultsSection<Element, SectionTitle>]
    /// Each title's section, for the lookup by title.
    private let offsets: [SectionTitle: Int]

    /// The sections of `models`, grouped by `title`, each in the order of `models`.
    init(_ models: some Sequence<Element>, title: (Element) -> SectionTitle) {
        var grouped: [(title: SectionTitle, models: [Element])] = []
        var offsets: [SectionTitle: Int] = [:]
        for model in models {
            let name = title(model)
            if let offset = offsets[name] {
                grouped[offset].models.append(model)
            } else {
                offsets[name] = grouped.count
                grouped.append((name, [model]))
            }
        }
        sections = grouped.map { ResultsSection(title: $0.title, elements: $0.models) }
        self.offsets = offsets
    }

    /// The first section's position: 0.
    public var startIndex: Int { 0 }
    /// The position after the last section.
    public var endIndex: Int { sections.count }
    /// The section at a position.
    public subscript(position: Int) -> ResultsSection<Element, SectionTitle> { sections[position] }

    /// The section with this title, or `nil` when no model has it.
    public subscript(sectionTitle title: SectionTitle) -> ResultsSection<Element, SectionTitle>? {
        offsets[title].map { sections[$0] }
    }

    /// The sections' titles, in order.
    public var sectionTitles: [SectionTitle] { sections.map(\.title) }
}

/// The models of one section of `SectionedResults`, which share the value of the property
/// the results are grouped by: SwiftData's `ResultsSection` (iOS 27).
public struct ResultsSection<Element: PersistentModel, SectionTitle: Hashable>: RandomAccessCollection, Identifiable {
    /// The value the section's models share.
    public let title: SectionTitle
    /// The section's models, in the results' order.
    private let elements: [Element]

    init(title: SectionTitle, elements: [Element]) {
        self.title = title
        self.elements = elements
    }

    /// The section's identity: its title.
    public var id: SectionTitle { title }
    /// The first model's position: 0.
    public var startIndex: Int { 0 }
    /// The position after the last model.
    public var endIndex: Int { elements.count }
    /// The model at a position.
    public subscript(position: Int) -> Element { elements[position] }
}

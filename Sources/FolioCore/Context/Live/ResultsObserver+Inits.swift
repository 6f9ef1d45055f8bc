import Foundation

extension ResultsObserver where SectionTitle == Never {
    /// Results for a descriptor, in a context, updated on the actor this runs on.
    ///
    /// - Throws: `.misuse` when made off an actor, for a model the container does not know or a
    ///   predicate that cannot run; otherwise what the first fetch throws (`.fileSystem`,
    ///   `.unsafePath`, `.invalidStore`, `.locked`, or a document's error when unreadable
    ///   documents are not skipped).
    public convenience init(
        fetchDescriptor: FetchDescriptor<Element> = FetchDescriptor<Element>(), modelContext: ModelContext,
        isolation: isolated (any Actor)? = #isolation
    ) throws(FolioError) {
        try self.init(
            fetchDescriptor: fetchDescriptor, sectionBy: nil, sectioning: nil, modelContext: modelContext,
            isolation: isolation)
    }

    /// Results for a descriptor in a new context of the container.
    ///
    /// - Throws: what `init(fetchDescriptor:modelContext:isolation:)` throws.
    public convenience init(
        fetchDescriptor: FetchDescriptor<Element> = FetchDescriptor<Element>(), modelContainer: ModelContainer,
        isolation: isolated (any Actor)? = #isolation
    ) throws(FolioError) {
        try self.init(
            fetchDescriptor: fetchDescriptor, modelContext: ModelContext(modelContainer), isolation: isolation)
    }

    /// Results for models matching a predicate, in an order.
    ///
    /// - Throws: what `init(fetchDescriptor:modelContext:isolation:)` throws.
    public convenience init(
        filterBy predicate: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>]? = nil,
        modelContext: ModelContext, isolation: isolated (any Actor)? = #isolation
    ) throws(FolioError) {
        try self.init(
            fetchDescriptor: FetchDescriptor(predicate: predicate, sortBy: sortBy ?? []), modelContext: modelContext,
            isolation: isolation)
    }

    /// Results for models matching a predicate, in an order, in a new context of the container.
    ///
    /// - Throws: what `init(fetchDescriptor:modelContext:isolation:)` throws.
    public convenience init(
        filterBy predicate: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>]? = nil,
        modelContainer: ModelContainer, isolation: isolated (any Actor)? = #isolation
    ) throws(FolioError) {
        try self.init(
            fetchDescriptor: FetchDescriptor(predicate: predicate, sortBy: sortBy ?? []),
            modelContext: ModelContext(modelContainer), isolation: isolation)
    }
}

extension ResultsObserver where SectionTitle == String {
    /// Results for a descriptor grouped into sections by a `String` property, in a context:
    /// the results are ordered by that property first (see `sections`).
    ///
    /// - Throws: what `init(fetchDescriptor:modelContext:isolation:)` throws.
    public convenience init(
        fetchDescriptor: FetchDescriptor<Element> = FetchDescriptor<Element>(),
        sectionBy: KeyPath<Element, String> & Sendable,
        modelContext: ModelContext, isolation: isolated (any Actor)? = #isolation
    ) throws(FolioError) {
        try self.init(
            fetchDescriptor: fetchDescriptor, sectionBy: sectionBy,
            sectioning: Sectioning(title: { $0[keyPath: sectionBy] }, order: [SortDescriptor(sectionBy)]),
            modelContext: modelContext, isolation: isolation)
    }

    /// Results for a descriptor grouped into sections by an optional `String` property, in a
    /// context; the models without a value share the section titled `""`.
    ///
    /// - Throws: what `init(fetchDescriptor:modelContext:isolation:)` throws.
    public convenience init(
        fetchDescriptor: FetchDescriptor<Element> = FetchDescriptor<Element>(),
        sectionBy: KeyPath<Element, String?> & Sendable,
        modelContext: ModelContext, isolation: isolated (any Actor)? = #isolation
    ) throws(FolioError) {
        try self.init(
            fetchDescriptor: fetchDescriptor, sectionBy: sectionBy,
            sectioning: Sectioning(title: { $0[keyPath: sectionBy] ?? "" }, order: [SortDescriptor(sectionBy)]),
            modelContext: modelContext, isolation: isolation)
    }

    /// Results for a descriptor grouped into sections by a `String` property, in a new context of the container.
    ///
    /// - Throws: what `init(fetchDescriptor:modelContext:isolation:)` throws.
    public convenience init(
        fetchDescriptor: FetchDescriptor<Element> = FetchDescriptor<Element>(),
        sectionBy: KeyPath<Element, String> & Sendable,
        modelContainer: ModelContainer, isolation: isolated (any Actor)? = #isolation
    ) throws(FolioError) {
        try self.init(
            fetchDescriptor: fetchDescriptor, sectionBy: sectionBy, modelContext: ModelContext(modelContainer),
            isolation: isolation)
    }

    /// Results for a descriptor grouped into sections by an optional `String` property, in a
    /// new context of the container.
    ///
    /// - Throws: what `init(fetchDescriptor:modelContext:isolation:)` throws.
    public convenience init(
        fetchDescriptor: FetchDescriptor<Element> = FetchDescriptor<Element>(),
        sectionBy: KeyPath<Element, String?> & Sendable,
        modelContainer: ModelContainer, isolation: isolated (any Actor)? = #isolation
    ) throws(FolioError) {
        try self.init(
            fetchDescriptor: fetchDescriptor, sectionBy: sectionBy, modelContext: ModelContext(modelContainer),
            isolation: isolation)
    }

    /// Results for models matching a predicate, in an order, grouped into sections by a `String` property.
    ///
    /// - Throws: what `init(fetchDescriptor:modelContext:isolation:)` throws.
    public convenience init(
        filterBy predicate: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>]? = nil,
        sectionBy: KeyPath<Element, String> & Sendable, modelContext: ModelContext,
        isolation: isolated (any Actor)? = #isolation
    ) throws(FolioError) {
        try self.init(
            fetchDescriptor: FetchDescriptor(predicate: predicate, sortBy: sortBy ?? []), sectionBy: sectionBy,
            modelContext: modelContext, isolation: isolation)
    }

    /// Results for models matching a predicate, in an order, grouped into sections by an optional `String` property.
    ///
    /// - Throws: what `init(fetchDescriptor:modelContext:isolation:)` throws.
    public convenience init(
        filterBy predicate: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>]? = nil,
        sectionBy: KeyPath<Element, String?> & Sendable, modelContext: ModelContext,
        isolation: isolated (any Actor)? = #isolation
    ) throws(FolioError) {
        try self.init(
            fetchDescriptor: FetchDescriptor(predicate: predicate, sortBy: sortBy ?? []), sectionBy: sectionBy,
            modelContext: modelContext, isolation: isolation)
    }

    /// Results for models matching a predicate, in an order, grouped into sections by a
    /// `String` property, in a new context of the container.
    ///
    /// - Throws: what `init(fetchDescriptor:modelContext:isolation:)` throws.
    public convenience init(
        filterBy predicate: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>]? = nil,
        sectionBy: KeyPath<Element, String> & Sendable, modelContainer: ModelContainer,
        isolation: isolated (any Actor)? = #isolation
    ) throws(FolioError) {
        try self.init(
            fetchDescriptor: FetchDescriptor(predicate: predicate, sortBy: sortBy ?? []), sectionBy: sectionBy,
            modelContext: ModelContext(modelContainer), isolation: isolation)
    }

    /// Results for models matching a predicate, in an order, grouped into sections by an
    /// optional `String` property, in a new context of the container.
    ///
    /// - Throws: what `init(fetchDescriptor:modelContext:isolation:)` throws.
    public convenience init(
        filterBy predicate: Predicate<Element>? = nil, sortBy: [SortDescriptor<Element>]? = nil,
        sectionBy: KeyPath<Element, String?> & Sendable, modelContainer: ModelContainer,
        isolation: isolated (any Actor)? = #isolation
    ) throws(FolioError) {
        try self.init(
            fetchDescriptor: FetchDescriptor(predicate: predicate, sortBy: sortBy ?? []), sectionBy: sectionBy,
            modelContext: ModelContext(modelContainer), isolation: isolation)
    }
}

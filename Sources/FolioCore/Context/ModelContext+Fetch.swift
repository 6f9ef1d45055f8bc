import FolioJSON
import Foundation

extension ModelContext {
    /// The models a descriptor selects, filtered, sorted and paged.
    ///
    /// The query runs on the stored documents (with this context's unsaved changes laid
    /// over them when `includePendingChanges`), through an index or the day folders when
    /// the predicate allows, and only the page's documents become models. A predicate or
    /// sort the engine cannot translate runs on models instead (`explain(_:)` says so).
    /// Models already registered are returned as they are, unsaved changes included.
    public func fetch<Model: PersistentModel>(_ descriptor: FetchDescriptor<Model>) throws -> [Model] {
        let plan = try fetchPlan(for: descriptor, checkingReadable: false)
        guard let query = plan.query else { return try fetchOnModels(descriptor) }
        let result = try run(query, of: plan)
        // Room for every model the page may add, made once rather than by regrowing.
        // A result names each document once: in a context with no models yet, none of
        // them can be registered already.
        let mayBeRegistered = !registered.isEmpty
        registered.reserveCapacity(registered.count + result.matches.count)
        var decodedRows: [Int] = []
        // A plain loop: `compactMap`'s generic closure looked up `Model?`'s metadata per result.
        var models: [Model] = []
        models.reserveCapacity(result.matches.count)
        let layout = opened.layout(of: query.entity)
        let folder = opened.schema.storageName(of: query.entity)
        // By position, each match read in place: a copy of one (its stored document with its
        // version and content) went through the runtime's value witnesses per result.
        for position in result.matches.indices {
            if let model = try unlessSkipped(
                in: query.entity,
                { () throws(FolioError) in
                    try model(
                        for: result.matches[position], entity: folder, layout: layout,
                        mayBeRegistered: mayBeRegistered, decodedRows: &decodedRows)
                }) as? Model
            {
                models.append(model)
            }
        }
        rememberReadable(decodedRows, of: result, entity: folder)
        return models
    }

    /// How many models a descriptor selects, counted on the documents: no model is made.
    public func fetchCount<Model: PersistentModel>(_ descriptor: FetchDescriptor<Model>) throws -> Int {
        let plan = try fetchPlan(for: descriptor, checkingReadable: false)
        guard let query = plan.query else { return try fetchOnModels(descriptor).count }
        let total = try run(query, of: plan, countOnly: true).total
        let offset = min(max(descriptor.fetchOffset ?? 0, 0), total)
        return min(total - offset, descriptor.fetchLimit.map { max($0, 0) } ?? Int.max)
    }

    /// The identities of the models a descriptor selects, to pass to other tasks; no
    /// model is made when the query runs on documents.
    public func fetchIdentifiers<Model: PersistentModel>(_ descriptor: FetchDescriptor<Model>) throws
        -> [PersistentIdentifier]
    {
        let plan = try fetchPlan(for: descriptor, checkingReadable: false)
        guard let query = plan.query else { return try fetchOnModels(descriptor).map(\.persistentModelID) }
        let folder = opened.schema.storageName(of: query.entity)
        return try run(query, of: plan).matches.map {
            PersistentIdentifier(entityName: folder, id: $0.id)
        }
    }

    /// Calls a block for each model a descriptor selects, making the models a batch at a
    /// time, so that going through a whole entity holds about one batch of models.
    ///
    /// The documents are selected once, up front; each batch's models are made just
    /// before the block sees them. After a batch, its models that nothing else holds and
    /// that have no unsaved change are let go (fetched again, a new instance comes back).
    /// Unless `allowEscapingMutations`, a batch whose block calls leave unsaved changes
    /// throws, as SwiftData does: save inside the block, or allow them.
    ///
    /// ```swift
    /// var minutes = 0.0
    /// try context.enumerate(FetchDescriptor<FocusSession>(), batchSize: 1000) { minutes += $0.duration / 60 }
    /// ```
    public func enumerate<Model: PersistentModel>(
        _ descriptor: FetchDescriptor<Model>, batchSize: Int = 5000, allowEscapingMutations: Bool = false,
        block: (Model) throws -> Void
    ) throws {
        let plan = try fetchPlan(for: descriptor, checkingReadable: false)
        guard let query = plan.query else {
            for model in try fetchOnModels(descriptor) { try block(model) }
            return
        }
        let result = try run(query, of: plan)
        let matches = result.matches
        let unsaved = (inserted, deleted, changed)
        let layout = opened.layout(of: query.entity)
        let folder = opened.schema.storageName(of: query.entity)
        var start = matches.startIndex
        while start < matches.endIndex {
            let batch = matches[start..<min(start + max(batchSize, 1), matches.endIndex)]
            start = batch.endIndex
            var made: [PersistentIdentifier] = []
            var decodedRows: [Int] = []
            for match in batch {
                let identifier = PersistentIdentifier(entityName: folder, id: match.id)
                let isNew = registered[identifier] == nil
                guard
                    let model = try unlessSkipped(
                        in: query.entity,
                        { () throws(FolioError) in
                            try model(for: match, entity: folder, layout: layout, decodedRows: &decodedRows)
                        }) as? Model
                else { continue }
                if isNew { made.append(identifier) }
                try block(model)
            }
            rememberReadable(decodedRows, of: result, entity: folder)
            if !allowEscapingMutations, (inserted, deleted, changed) != unsaved {
                throw FolioError.misuse(
                    "enumerate's block left unsaved changes to \(Model.self) models; save them inside the block, or pass allowEscapingMutations: true"
                )
            }
            letGo(made)
        }
    }

    /// Unregisters models that nothing outside this context holds and that have no
    /// unsaved change: no one can see them go, and their memory comes back.
    func letGo(_ identifiers: [PersistentIdentifier]) {
        for identifier in identifiers where !changed.contains(identifier) && !deleted.contains(identifier) {
            // Someone else holds it if it outlives its removal: then it stays registered.
            if let model = unregister(identifier).model { registered[identifier] = model }
        }
    }

    /// A model no longer held strongly by the context.
    private struct Unregistered {
        weak var model: (any PersistentModel)?
    }

    /// Removes a model from the context. Its own function, so that no strong reference
    /// made here outlives the call.
    private func unregister(_ identifier: PersistentIdentifier) -> Unregistered {
        Unregistered(model: registered.removeValue(forKey: identifier))
    }

    /// How a descriptor runs: the index or day folders it uses, how many documents it
    /// read and matched, and whether it fell back to models. Folio's.
    ///
    /// ```swift
    /// let plan = try context.explain(FetchDescriptor<FocusSession>(predicate: #Predicate { $0.state == "paused" }))
    /// print(plan)  // FocusSession: index (state) == ("paused") ...
    /// ```
    public func explain<Model: PersistentModel>(_ descriptor: FetchDescriptor<Model>) throws -> QueryExplanation {
        let plan = try fetchPlan(for: descriptor)
        guard let query = plan.query else {
            let entity = try entity(of: Model.self)
            let total = opened.store(of: entity.name).documentCounts[entity.storageName] ?? 0
            let matched = try fetchOnModels(descriptor).count
            return QueryExplanation(
                entity: entity.name, access: .scan, documents: total, examined: total, matched: matched,
                fallback: plan.fallback)
        }
        return try opened.store(of: query.entity).run(query, overlay: plan.overlay).explanation
    }

    /// A descriptor as a document query with this context's unsaved changes, or the
    /// reason it must run on models.
    struct FetchPlan {
        var entity: Schema.Entity
        var query: DocumentQuery?
        var overlay: [(PersistentIdentifier, JSONObject?)] = []
        var fallback: String?
    }

    /// How a descriptor runs, the entity's unreadable files checked first (see
    /// `checkReadable`); without `checkingReadable`, a plan whose query runs on documents
    /// leaves the check to `run(_:of:)`, after the query: an answer from a folder's cache
    /// file, whose walk found the folder clean, then does not load the folder to say so.
    func fetchPlan<Model: PersistentModel>(for descriptor: FetchDescriptor<Model>, checkingReadable: Bool = true)
        throws(FolioError) -> FetchPlan
    {
        mergeChanges()
        let entity = try entity(of: Model.self)
        if checkingReadable { try checkReadable(entity) }
        var query = DocumentQuery(
            entity: entity.name, offset: max(descriptor.fetchOffset ?? 0, 0), limit: descriptor.fetchLimit,
            includeDeleted: descriptor.includeDeleted)
        if let predicate = descriptor.predicate {
            switch PredicateTranslation.query(for: predicate, entity: entity, schema: opened.schema) {
            case .success(let filter): query.filter = filter
            case .failure(let reason):
                let shape = String(describing: type(of: predicate.expression))
                OnceLog.query.notice(
                    entity.name + "|" + shape,
                    "A predicate on \(entity.name) runs on models, not on documents: \(reason.description)")
                if !checkingReadable { try checkReadable(entity) }
                return FetchPlan(entity: entity, fallback: reason.description)
            }
        }
        for descriptor in descriptor.sortBy {
            guard let key = sortKey(descriptor, in: entity) else {
                if !checkingReadable { try checkReadable(entity) }
                return FetchPlan(
                    entity: entity,
                    fallback:
                        "a sort on \(descriptor.keyPath.map { "\($0)" } ?? "a comparator") has no query translation")
            }
            query.sort.append(key)
        }
        return FetchPlan(
            entity: entity, query: query, overlay: descriptor.includePendingChanges ? try pendingContent() : [])
    }

    /// A plan's query run on its store with the plan's unsaved changes, then the entity's
    /// unreadable files checked (see `checkReadable`).
    private func run(_ query: DocumentQuery, of plan: FetchPlan, countOnly: Bool = false) throws(FolioError)
        -> DocumentQueryResult
    {
        let result = try opened.store(of: query.entity).run(query, overlay: plan.overlay, countOnly: countOnly)
        try checkReadable(plan.entity)
        return result
    }

    /// Under `.fail` (the default), throws the error of the entity's first file the store
    /// could not read: any answer about the entity could depend on it. Under `.skip`, logs
    /// each such file once and goes on without it.
    private func checkReadable(_ entity: Schema.Entity) throws(FolioError) {
        let unreadable = opened.store(of: entity.name).unreadableDocuments(of: entity.storageName)
        guard let first = unreadable.first else { return }
        guard opened.configuration(of: entity.name).unreadableDocuments == .skip else { throw first.error }
        for issue in unreadable {
            OnceLog.documents.notice(
                issue.path,
                "A fetch of \(entity.name) leaves out \(issue.path), which cannot be read: \(issue.error.description)")
        }
    }

    /// What `make` returns; under `.skip`, `nil` instead of its error when a document does not
    /// fit the model (logged once, and kept in `issues`).
    private func unlessSkipped(in entity: String, _ make: () throws(FolioError) -> (any PersistentModel)?)
        throws(FolioError) -> (any PersistentModel)?
    {
        do { return try make() } catch {
            guard opened.configuration(of: entity).unreadableDocuments == .skip else { throw error }
            OnceLog.documents.notice(
                error.path ?? error.description,
                "A fetch leaves out a document that does not fit its model: \(error.description)")
            issues.append(error)
            return nil
        }
    }

    /// A sort descriptor on a value the engine orders as Swift does (see `SortTranslation`).
    private func sortKey<Model>(_ descriptor: SortDescriptor<Model>, in entity: Schema.Entity) -> DocumentQuery.SortKey?
    {
        guard let keyPath = descriptor.keyPath,
            let expression = SortTranslation.expression(for: keyPath, in: entity, schema: opened.schema)
        else { return nil }
        return DocumentQuery.SortKey(
            expression, ascending: descriptor.order == .forward, comparator: descriptor.stringComparator)
    }

    /// Unsaved content: inserted and changed models as the documents a save would
    /// write, models marked for deletion as gone.
    private func pendingContent() throws(FolioError) -> [(PersistentIdentifier, JSONObject?)] {
        var overlay: [(PersistentIdentifier, JSONObject?)] = []
        let edited = changed.subtracting(inserted).sorted { $0.id.uuidString < $1.id.uuidString }
        for identifier in inserted + edited where !deleted.contains(identifier) {
            guard let model = registered[identifier], let layout = opened.layout(of: model) else { continue }
            let document = try ModelDocument.document(
                for: model, layout: layout, version: opened.schema.version,
                deletedAt: model.persistentBackingData.deletedAt)
            overlay.append((identifier, document.content))
        }
        for identifier in deleted {
            overlay.append((identifier, nil))
        }
        return overlay
    }

    /// The model for a query's match: the registered instance, else one made from the
    /// document, whose row joins `decodedRows` when making it decoded every member.
    private func model(
        for match: DocumentQueryResult.Match, entity: String, layout: EntityLayout?, mayBeRegistered: Bool = true,
        decodedRows: inout [Int]
    ) throws(FolioError) -> (any PersistentModel)? {
        // `materialize` returns the registered model if there is one: looking it up here
        // first hashed the identity twice for every result.
        guard let stored = match.stored else {
            return registered[PersistentIdentifier(entityName: entity, id: match.id)]
        }
        let (model, decoded) = try materialize(
            stored, isKnownReadable: match.isKnownReadable, mayBeRegistered: mayBeRegistered, layout: layout)
        if decoded, let row = match.row { decodedRows.append(row) }
        return model
    }

    /// Tells the store which rows of a result models were made from, every member
    /// decoded without failing: the next fetch of them, in any context of the container,
    /// leaves their values to be decoded when first read.
    private func rememberReadable(_ rows: [Int], of result: DocumentQueryResult, entity: String) {
        guard !rows.isEmpty, let generation = result.tableGeneration else { return }
        opened.store(of: entity).rememberReadable(rows: rows, of: entity, generation: generation)
    }

    /// The descriptor evaluated on models made from every document of the entity: for
    /// predicates and sorts the engine cannot translate.
    private func fetchOnModels<Model: PersistentModel>(_ descriptor: FetchDescriptor<Model>) throws -> [Model] {
        var models = try candidates(for: descriptor)
        if let predicate = descriptor.predicate { models = try models.filter { try predicate.evaluate($0) } }
        if !descriptor.sortBy.isEmpty {
            models.sort { LocalizedStringOrder.compare($0, $1, by: descriptor.sortBy) == .orderedAscending }
        }
        let offset = min(max(descriptor.fetchOffset ?? 0, 0), models.count)
        let end = descriptor.fetchLimit.map { min(offset + max($0, 0), models.count) } ?? models.count
        return Array(models[offset..<end])
    }

    /// Every model of the type before filtering: stored ones (skipping soft-deleted ones
    /// unless asked) and, with pending changes, unsaved inserts but not unsaved deletes.
    private func candidates<Model: PersistentModel>(for descriptor: FetchDescriptor<Model>) throws(FolioError)
        -> [Model]
    {
        let entity = try entity(of: Model.self)
        var models: [Model] = []
        var seen = Set<ObjectIdentifier>()
        for stored in opened.store(of: entity.name).documents(entity: entity.storageName) {
            guard descriptor.includeDeleted || stored.member(ReservedKey.deleted) == nil,
                let model = try unlessSkipped(in: entity.name, { () throws(FolioError) in try materialize(stored) })
                    as? Model,
                !(descriptor.includePendingChanges && isPendingDeletion(model.persistentBackingData)),
                seen.insert(ObjectIdentifier(model)).inserted
            else { continue }
            models.append(model)
        }
        if descriptor.includePendingChanges {
            for identifier in inserted where identifier.entityName == entity.storageName {
                guard let model = registered[identifier] as? Model, !isPendingDeletion(model.persistentBackingData),
                    seen.insert(ObjectIdentifier(model)).inserted
                else { continue }
                models.append(model)
            }
        }
        return models
    }

    /// The container's entity for a model type, or an error naming the type.
    func entity(of type: any PersistentModel.Type) throws(FolioError) -> Schema.Entity {
        let name = ModelEntities.entity(of: type).name
        guard let entity = opened.schema.entity(named: name) else {
            throw .misuse("\(name) is not one of this container's models; add it to the container's schema")
        }
        return entity
    }
}

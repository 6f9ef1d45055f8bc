import Foundation
import FolioJSON

extension ModelContext {
    /// The models a descriptor selects, filtered, sorted and paged.
    ///
    /// For now the predicate is evaluated on models made from the stored documents (the
    /// query engine will answer most predicates from the documents alone). Models already
    /// registered are returned as they are, unsaved changes included.
    public func fetch<Model: PersistentModel>(_ descriptor: FetchDescriptor<Model>) throws -> [Model] {
        var models = try candidates(for: descriptor)
        if let predicate = descriptor.predicate { models = try models.filter { try predicate.evaluate($0) } }
        if !descriptor.sortBy.isEmpty { models.sort(using: descriptor.sortBy) }
        let offset = min(max(descriptor.fetchOffset ?? 0, 0), models.count)
        let end = descriptor.fetchLimit.map { min(offset + max($0, 0), models.count) } ?? models.count
        return Array(models[offset..<end])
    }

    /// How many models a descriptor selects; without a predicate, counted from the
    /// documents without making models.
    public func fetchCount<Model: PersistentModel>(_ descriptor: FetchDescriptor<Model>) throws -> Int {
        guard descriptor.predicate == nil else { return try fetch(descriptor).count }
        let entity = try entity(of: Model.self)
        let pendingDeletes = Set(deleted)
        var stored = Set<UUID>()
        for document in container.store.documents(entity: entity.name)
        where descriptor.includeDeleted || document.content[ModelDocument.deletedKey] == nil {
            let identifier = PersistentIdentifier(entityName: entity.name, id: document.id)
            if descriptor.includePendingChanges, pendingDeletes.contains(identifier) { continue }
            stored.insert(document.id)
        }
        let pending =
            descriptor.includePendingChanges
            ? inserted.filter { $0.entityName == entity.name && !stored.contains($0.id) && !pendingDeletes.contains($0) }.count : 0
        let total = stored.count + pending
        let offset = min(max(descriptor.fetchOffset ?? 0, 0), total)
        return min(total - offset, descriptor.fetchLimit.map { max($0, 0) } ?? Int.max)
    }

    /// The identities of the models a descriptor selects, to pass to other tasks.
    public func fetchIdentifiers<Model: PersistentModel>(_ descriptor: FetchDescriptor<Model>) throws -> [PersistentIdentifier] {
        try fetch(descriptor).map(\.persistentModelID)
    }

    /// Calls a block for each model a descriptor selects, in batches.
    public func enumerate<Model: PersistentModel>(
        _ descriptor: FetchDescriptor<Model>, batchSize: Int = 5000, allowEscapingMutations: Bool = false, block: (Model) throws -> Void
    ) throws {
        for model in try fetch(descriptor) { try block(model) }
    }

    /// Every model of the type before filtering: stored ones (skipping soft-deleted ones
    /// unless asked) and, with pending changes, unsaved inserts but not unsaved deletes.
    private func candidates<Model: PersistentModel>(for descriptor: FetchDescriptor<Model>) throws(FolioError) -> [Model] {
        let entity = try entity(of: Model.self)
        var models: [Model] = []
        var seen = Set<ObjectIdentifier>()
        for stored in container.store.documents(entity: entity.name) {
            guard descriptor.includeDeleted || stored.content[ModelDocument.deletedKey] == nil,
                let model = try materialize(stored) as? Model,
                !(descriptor.includePendingChanges && isPendingDeletion(model.persistentBackingData)),
                seen.insert(ObjectIdentifier(model)).inserted
            else { continue }
            models.append(model)
        }
        if descriptor.includePendingChanges {
            for identifier in inserted where identifier.entityName == entity.name {
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
        guard let entity = container.schema.entity(named: name) else {
            throw .invalidArgument("\(name) is not one of this container's models; add it to the container's schema")
        }
        return entity
    }
}

import Foundation
import FolioJSON

extension ModelContext {
    /// Brings back a soft-deleted model and every model its deletion cascaded to (they
    /// carry the same `"$deleted"` stamp); the next save writes them without the stamp.
    ///
    /// Fetch the model first with `FetchDescriptor.includeDeleted`. Folio's: SwiftData
    /// has no soft deletes.
    public func restore<Model: PersistentModel>(_ model: Model) {
        guard let stamp = model.persistentBackingData.deletedAt else { return }
        var pending: [any PersistentModel] = [model]
        var restored = Set<ObjectIdentifier>()
        while let next = pending.popLast() {
            guard restored.insert(ObjectIdentifier(next)).inserted else { continue }
            let data = next.persistentBackingData
            let identifier = next.persistentModelID
            data.deletedAt = nil
            data.context = self
            registered[identifier] = next
            changed.insert(identifier)
            guard let entity = container.schema.entity(named: identifier.entityName) else { continue }
            for relationship in entity.relationships where relationship.deleteRule == .cascade {
                pending += cascaded(from: next, through: relationship).filter { $0.persistentBackingData.deletedAt == stamp }
            }
        }
    }

    /// Removes the files of models soft-deleted before a moment, in one transaction;
    /// returns how many. Folio's: SwiftData has no soft deletes.
    @discardableResult
    public func purge(deletedBefore moment: Date) throws(FolioError) -> Int {
        guard container.configuration.allowsSave else {
            throw .invalidArgument("this container's configuration has allowsSave: false, so it cannot purge")
        }
        var changes: [DocumentChange] = []
        for entity in container.schema.entities {
            for stored in container.store.documents(entity: entity.name) {
                guard let stamp = stored.content[ModelDocument.deletedKey] else { continue }
                let deletedAt: Date
                do { deletedAt = try Date(json: stamp) } catch {
                    throw .invalidDocument(path: stored.path.relativePath, reason: "\"\(ModelDocument.deletedKey)\" is not a time: \(error.message)")
                }
                guard deletedAt < moment else { continue }
                changes.append(.delete(stored.version))
                if let model = registered.removeValue(forKey: PersistentIdentifier(entityName: entity.name, id: stored.id)) {
                    model.persistentBackingData.context = nil
                    model.persistentBackingData.document = nil
                }
            }
        }
        try container.store.commit(changes)
        return changes.count
    }

    /// The models a relationship of a model holds, soft-deleted ones included.
    private func cascaded(from model: any PersistentModel, through relationship: Schema.Relationship) -> [any PersistentModel] {
        if !relationship.isStored(in: container.schema), let inverseName = relationship.inverseName {
            return models(of: relationship.destination, referringTo: model.persistentModelID.id, through: inverseName, includingDeleted: true)
        }
        guard let access = relationship.access.value else { return [] }
        return model.persistentBackingData.currentValue(forKey: relationship.name).map(access.models) ?? []
    }
}

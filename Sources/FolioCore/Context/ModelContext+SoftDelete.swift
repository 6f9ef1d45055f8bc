import FolioJSON
import Foundation

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
            guard let entity = opened.layout(of: next)?.entity else { continue }
            for relationship in entity.relationships where relationship.deleteRule == .cascade {
                pending += cascaded(from: next, through: relationship).filter {
                    $0.persistentBackingData.deletedAt == stamp
                }
            }
        }
    }

    /// Removes the files of models soft-deleted before a moment, in one transaction;
    /// returns how many. Folio's: SwiftData has no soft deletes.
    ///
    /// The same transaction removes the references other documents keep to them, as
    /// `.nullify` would (`DocumentStore.purging(deletedBefore:)`); models of this context
    /// holding such references take the new documents, unsaved changes kept.
    ///
    /// - Throws: `.misuse` when a store with models to purge has a read-only configuration;
    ///   otherwise what `DocumentStore.commit` throws (`.conflict`, `.fileSystem`, `.unsafePath`,
    ///   `.locked`, `.unfinishedCommit`).
    @discardableResult
    public func purge(deletedBefore moment: Date) throws(FolioError) -> Int {
        var count = 0
        for (store, configuration) in zip(opened.stores, opened.configurations) {
            let changes = store.purging(deletedBefore: moment)
            guard !changes.isEmpty else { continue }
            if let why = configuration.whyReadOnly {
                throw .misuse("the configuration of \(store.root) \(why), so it cannot purge")
            }
            try store.commit(changes, author: author)
            opened.publish(changes)
            count += forgetPurged(changes, from: store)
        }
        return count
    }

    /// Lets go of the models a purge removed, and gives the models that referred to them
    /// their new documents; returns how many documents were purged.
    private func forgetPurged(_ changes: [DocumentChange], from store: DocumentStore) -> Int {
        // Not the app's change to undo.
        undoManager?.disableUndoRegistration()
        defer { undoManager?.enableUndoRegistration() }
        let purged = Set(
            changes.compactMap { change -> PersistentIdentifier? in
                guard case .delete(let version) = change else { return nil }
                return PersistentIdentifier(version.path)
            })
        for change in changes {
            switch change {
            case .delete(let version):
                if let model = registered.removeValue(
                    forKey: PersistentIdentifier(version.path))
                {
                    model.persistentBackingData.context = nil
                    model.persistentBackingData.document = nil
                }
            case .put(let document, _):
                let identifier = PersistentIdentifier(entityName: document.entity, id: document.id)
                guard let model = registered[identifier],
                    let stored = store.document(entity: document.entity, id: document.id),
                    let layout = opened.layout(of: model)
                else { continue }
                let data = model.persistentBackingData
                if changed.contains(identifier) {
                    // Its unsaved changes stay, without the purged models; its next save builds on the new document.
                    data.document = stored
                    for relationship in layout.entity.relationships {
                        guard let access = relationship.access.value,
                            let value = data.currentValue(forKey: relationship.name)
                        else { continue }
                        let held = access.models(value)
                        let kept = held.filter { !purged.contains($0.persistentModelID) }
                        if kept.count != held.count { access.assign(model, access.value(kept)) }
                    }
                } else {
                    recordingIssue { () throws(FolioError) in
                        try ModelDocument.fill(data, from: stored, layout: layout, context: self)
                    }
                }
            }
        }
        return purged.count
    }

    /// The models a relationship of a model holds, soft-deleted ones included.
    private func cascaded(from model: any PersistentModel, through relationship: Schema.Relationship)
        -> [any PersistentModel]
    {
        if !relationship.isStored(in: opened.schema), let inverseName = relationship.inverseName {
            return models(
                of: relationship.destination, referringTo: model.persistentModelID.id, through: inverseName,
                includingDeleted: true)
        }
        guard let access = relationship.access.value else { return [] }
        return model.persistentBackingData.currentValue(forKey: relationship.name).map(access.models) ?? []
    }
}

import FolioJSON
import Foundation

extension ModelContext {
    /// Writes every inserted, changed and deleted model in one store transaction.
    ///
    /// Delete rules apply first: `.cascade` deletes the related models too, `.nullify`
    /// removes the deleted model from the other side, and `.deny` makes the save throw a
    /// `FolioError` of kind `.constraint` before anything is written. An unchanged save writes nothing; a
    /// model whose document changed on disk since it was read fails the whole save with
    /// `conflict`, naming the model and the file.
    ///
    /// A container with several configurations has a store for each: a save that changes
    /// models of several commits one transaction per store, in the configurations' order.
    /// If one fails, the stores before it keep what they saved (those models have no
    /// unsaved changes any more), and the models of the others keep theirs, so saving
    /// again writes the rest.
    ///
    /// - Throws: `.misuse` for a model of a read-only configuration, or a saved model whose `id`
    ///   was changed; `.constraint` for a `.deny` delete rule or a relationship's model count;
    ///   `.invalidValue` for a value that cannot be stored; `.conflict` when a model's file
    ///   changed on disk since it was read; `.fileSystem`, `.unsafePath` or `.locked` when the
    ///   store cannot be written; `.unfinishedCommit` after the commit point.
    public func save() throws(FolioError) { try save(attempt: 1) }

    /// How many times a save plans again after another process saved between its plan and
    /// its commit, before it commits without looking (see `save(attempt:)`).
    static let upsertAttempts = 20

    /// `save()`: planned again when it inserts models that may replace stored documents under
    /// their uniqueness constraints (SwiftData's upsert) and another process saved to the
    /// container's one store between the plan and the commit, so that two processes inserting
    /// one unique value at once leave one document, as a SQLite store's transaction does.
    private func save(attempt: Int) throws(FolioError) {
        guard hasChanges else { return }
        for identifier in inserted + changed + deleted {
            if let why = opened.configuration(of: identifier.entityName).whyReadOnly {
                throw .misuse(
                    "\(identifier.entityName)'s configuration \(why), so it cannot save; nothing was written. Make another configuration to write"
                )
            }
        }
        if attempt == 1 { NotificationCenter.default.post(name: Self.willSave, object: self) }
        // The token the upserts are planned as of: the store brought up to it first, since the
        // watcher may not have told this container yet of what another process saved.
        let upserting = opened.stores.count == 1 ? upsertStore() : nil
        let token = attempt <= Self.upsertAttempts ? upserting?.latestTransactionToken() : nil
        if let upserting, let token, !upserting.reflectsTransactions(through: token) {
            _ = try opened.refresh(upserting)
        }
        let schema = opened.schema
        let doomed = try applyDeleteRules()
        let doomedSet = Set(doomed)
        try checkModelCounts(except: doomedSet)
        let now = Date()

        var changes: [DocumentChange] = []
        var written: [(model: any PersistentModel, document: Document, deletedAt: Date?)] = []
        for identifier in inserted where !doomedSet.contains(identifier) {
            guard let model = registered[identifier], let layout = opened.layout(of: model) else { continue }
            // An `id` changed between insert and this first save names the file: follow it.
            if layout.hasOwnIdentity, let own = model.persistentBackingData.ownIdentity, own != identifier.id {
                rekey(model, from: identifier, to: PersistentIdentifier(entityName: identifier.entityName, id: own))
            }
            let replaced = try upsertTarget(for: model, layout: layout)
            if let replaced, replaced.id != model.persistentModelID.id { changes.append(.delete(replaced.version)) }
            let document = try ModelDocument.document(
                for: model, layout: layout, version: schema.version, deletedAt: nil)
            changes.append(.put(document, basedOn: replaced?.id == document.id ? replaced?.version : nil))
            written.append((model, document, nil))
        }
        for identifier in changed.sorted() where !doomedSet.contains(identifier) && !inserted.contains(identifier) {
            guard let model = registered[identifier], let layout = opened.layout(of: model) else { continue }
            let data = model.persistentBackingData
            if layout.hasOwnIdentity, let own = data.ownIdentity, own != identifier.id {
                throw .misuse(
                    "\(identifier): its id was changed to \(own.uuidString), but a saved model's id names its file; insert a new model with that id instead"
                )
            }
            let document = try ModelDocument.document(
                for: model, layout: layout, version: schema.version, deletedAt: data.deletedAt)
            changes.append(.put(document, basedOn: data.document?.version))
            written.append((model, document, data.deletedAt))
        }
        for identifier in doomed {
            guard let model = registered[identifier], let stored = model.persistentBackingData.document,
                let layout = opened.layout(of: model)
            else { continue }
            if opened.configuration(of: identifier.entityName).deletion == .soft {
                // A tombstone keeps every value, so `restore` can bring the model back whole.
                let document = try ModelDocument.document(
                    for: model, layout: layout, version: schema.version, deletedAt: now)
                changes.append(.put(document, basedOn: stored.version))
                written.append((model, document, now))
            } else {
                changes.append(.delete(stored.version))
            }
        }

        // What the save does, for `didSave`: identities as they are now that upserts have rekeyed.
        let report = SavedIdentifiers(
            inserted: inserted.filter { !doomedSet.contains($0) },
            updated: changed.subtracting(inserted).subtracting(doomedSet).sorted(), deleted: doomed)
        // One transaction per store: a container's configurations keep separate folders.
        let stores = opened.stores
        for store in stores {
            // Whether this store holds an entity's documents: always, for a container with one.
            let holds = { (entity: String) in stores.count == 1 || self.opened.store(of: entity) === store }
            let own = changes.filter { holds($0.entity) }
            guard !own.isEmpty else { continue }
            guard let summary = try commit(own, to: store, ifNoTransactionAfter: store === upserting ? token : nil)
            else {
                // Nothing was written: plan again on what the other process saved.
                return try save(attempt: attempt + 1)
            }
            opened.publish(own)
            var versions: [PersistentIdentifier: DocumentVersion] = [:]
            for (path, version) in summary.versions {
                versions[PersistentIdentifier(path)] = version
            }
            for (model, document, deletedAt) in written where holds(document.entity) {
                let data = model.persistentBackingData
                if let version = versions[model.persistentModelID] {
                    data.document = StoredDocument(version: version, content: document.content)
                }
                data.deletedAt = deletedAt
                data.clearChanges()
            }
            let saved = { (identifier: PersistentIdentifier) in holds(identifier.entityName) }
            // A soft-deleted model stays registered, stamped: a fetch that includes deleted models
            // finds this same object (one identity, one model per context), and `restore` works on it.
            for identifier in doomed
            where saved(identifier) && opened.configuration(of: identifier.entityName).deletion == .hard {
                guard let data = registered[identifier]?.persistentBackingData else { continue }
                data.context = nil
                data.document = nil
                registered[identifier] = nil
            }
            inserted.removeAll(where: saved)
            changed = changed.filter { !saved($0) }
            deleted.removeAll(where: saved)
        }
        // What no store took (a model whose insert was undone by an upsert) is done with too.
        inserted = []
        changed = []
        deleted = []
        NotificationCenter.default.post(name: Self.didSave, object: self, userInfo: report.userInfo)
    }

    /// The deleted models and every model their `.cascade` relationships reach, after
    /// checking `.deny` rules and applying `.nullify` ones.
    private func applyDeleteRules() throws(FolioError) -> [PersistentIdentifier] {
        // What the save does is not the app's to undo: an undo after it would give models back
        // references to deleted ones.
        undoManager?.disableUndoRegistration()
        defer { undoManager?.enableUndoRegistration() }
        var doomed = deleted
        var doomedSet = Set(doomed)
        var index = 0
        while index < doomed.count {
            for (relationship, related) in relatedModels(of: doomed[index]) where relationship.deleteRule == .cascade {
                for model in related where doomedSet.insert(model.persistentModelID).inserted {
                    insert(model)
                    doomed.append(model.persistentModelID)
                }
            }
            index += 1
        }
        for identifier in doomed {
            for (relationship, related) in relatedModels(of: identifier) where relationship.deleteRule == .deny {
                let remaining = related.filter { !doomedSet.contains($0.persistentModelID) }
                guard remaining.isEmpty else {
                    throw .deleteDenied(
                        model: identifier.description, relationship: relationship.name, relatedCount: remaining.count)
                }
            }
        }
        try checkNoRequiredToOneIsEmptied(doomed, doomedSet)
        // Read again for each: a holder of two deleted models loses both.
        for hold in nullifiedHolds(doomed, doomedSet) {
            hold.access.assign(hold.holder, hold.access.value(hold.current.filter { $0 !== hold.owner }))
        }
        deleted = doomed
        return doomed
    }

    /// Throws when a model being deleted is still the one a required to-one of a model that
    /// stays holds (`var owner: Owner`, reached through its inverse): nullifying it would
    /// leave that model without one, which SwiftData's validation refuses too. Checked before
    /// any relationship is nullified, so a refused save changes none.
    private func checkNoRequiredToOneIsEmptied(
        _ doomed: [PersistentIdentifier], _ doomedSet: Set<PersistentIdentifier>
    ) throws(FolioError) {
        for hold in nullifiedHolds(doomed, doomedSet)
        where !hold.inverse.isToMany && !hold.inverse.isOptional && hold.current.contains(where: { $0 === hold.owner })
        {
            throw .invalidValue(
                "\(hold.owner.persistentModelID) is deleted, but \(hold.holder.persistentModelID) requires it as its \(hold.inverse.name); give it another, or delete it too (deleteRule: .cascade)"
            )
        }
    }

    /// A model that stays, related to a model being deleted through a `.nullify` relationship:
    /// the holder's side of it (the relationship's inverse) is what the save empties of the deleted model.
    private struct NullifiedHold {
        /// The model being deleted.
        let owner: any PersistentModel
        /// The model that stays.
        let holder: any PersistentModel
        let inverse: Schema.Relationship
        let access: RelationshipAccess

        /// The models the holder's side holds now.
        var current: [any PersistentModel] {
            holder.persistentBackingData.currentValue(forKey: inverse.name).map(access.models) ?? []
        }
    }

    /// Each model that stays and is related to a model being deleted through a `.nullify` relationship.
    private func nullifiedHolds(_ doomed: [PersistentIdentifier], _ doomedSet: Set<PersistentIdentifier>)
        -> [NullifiedHold]
    {
        var holds: [NullifiedHold] = []
        for identifier in doomed {
            guard let owner = registered[identifier] else { continue }
            for (relationship, related) in relatedModels(of: identifier) where relationship.deleteRule == .nullify {
                guard let inverseName = relationship.inverseName,
                    let inverse = opened.schema.entity(named: relationship.destination)?.relationship(
                        named: inverseName),
                    let access = inverse.access.value
                else { continue }
                for model in related where !doomedSet.contains(model.persistentModelID) {
                    holds.append(NullifiedHold(owner: owner, holder: model, inverse: inverse, access: access))
                }
            }
        }
        return holds
    }

    /// Throws when an inserted or changed model holds fewer models in a to-many relationship
    /// than its `minimumModelCount`, or more than its `maximumModelCount` (0 is no limit),
    /// as SwiftData's save does; models being deleted do not count.
    private func checkModelCounts(except doomed: Set<PersistentIdentifier>) throws(FolioError) {
        var owners = inserted + changed.sorted()
        // A model joins a to-many by setting its side (`rower.scull = boat`): the owner it names is checked too.
        for identifier in owners {
            for (relationship, related) in relatedModels(of: identifier) where !relationship.isToMany {
                guard let inverseName = relationship.inverseName,
                    let inverse = opened.schema.entity(named: relationship.destination)?.relationship(
                        named: inverseName),
                    inverse.isToMany, (inverse.minimumModelCount ?? 0) > 0 || (inverse.maximumModelCount ?? 0) > 0
                else { continue }
                owners += related.map(\.persistentModelID)
            }
        }
        var checked = Set<PersistentIdentifier>()
        for identifier in owners where !doomed.contains(identifier) && checked.insert(identifier).inserted {
            guard let model = registered[identifier], let entity = opened.layout(of: model)?.entity else { continue }
            for relationship in entity.relationships where relationship.isToMany {
                let (minimum, maximum) = (relationship.minimumModelCount ?? 0, relationship.maximumModelCount ?? 0)
                // A relationship a fetched model never read holds what is stored, which was checked when saved.
                guard minimum > 0 || maximum > 0, let access = relationship.access.value,
                    let value = model.persistentBackingData.currentValue(forKey: relationship.name)
                else { continue }
                let count = access.models(value).filter { !doomed.contains($0.persistentModelID) }.count
                let limits = maximum > 0 ? "\(minimum) to \(maximum)" : "at least \(minimum)"
                if count < minimum || (maximum > 0 && count > maximum) {
                    throw .constraint(
                        "\(identifier): \(relationship.name) holds \(count) \(relationship.destination) models, but its @Relationship allows \(limits) (minimumModelCount, maximumModelCount); nothing was saved"
                    )
                }
            }
        }
    }

    /// Each relationship of a registered model with the models it holds now.
    private func relatedModels(of identifier: PersistentIdentifier) -> [(Schema.Relationship, [any PersistentModel])] {
        guard let model = registered[identifier], let entity = opened.layout(of: model)?.entity else { return [] }
        return entity.relationships.compactMap { relationship in
            guard let access = relationship.access.value else { return nil }
            let value = model.persistentBackingData.currentValue(forKey: relationship.name)
            return (relationship, value.map(access.models) ?? [])
        }
    }

    /// The stored document an inserted model replaces under its entity's uniqueness
    /// constraints (SwiftData's upsert), if any. A model without an `id` of its own takes
    /// over the replaced document's identity.
    private func upsertTarget(for model: any PersistentModel, layout: EntityLayout) throws(FolioError)
        -> StoredDocument?
    {
        let identifier = model.persistentModelID
        let entity = layout.entity
        let store = opened.store(of: entity.name)
        if let same = store.document(entity: entity.storageName, id: identifier.id) { return same }
        let constraints = Self.upsertConstraints(of: layout)
        guard !constraints.isEmpty else { return nil }
        let document = try ModelDocument.document(
            for: model, layout: layout, version: opened.schema.version, deletedAt: nil)
        for constraint in constraints {
            let key = constraint.map { document.content[$0] }
            // As in SQL, a missing value (nil) is unique to itself: it matches nothing.
            guard !key.contains(where: { $0 == nil || $0 == .null }) else { continue }
            guard
                let match = store.documents(entity: entity.storageName).first(where: { stored in
                    stored.content[ReservedKey.deleted] == nil && constraint.map({ stored.content[$0] }) == key
                })
            else { continue }
            if !layout.hasOwnIdentity {
                rekey(model, from: identifier, to: PersistentIdentifier(entityName: entity.storageName, id: match.id))
            }
            return match
        }
        return nil
    }

    /// The uniqueness constraints an inserted model of `layout` is matched by: only values the
    /// documents hold can match; a constraint on an ephemeral property would match every document.
    private static func upsertConstraints(of layout: EntityLayout) -> [[String]] {
        layout.entity.uniquenessConstraints.filter { constraint in
            (constraint != ["id"] || !layout.hasOwnIdentity) && constraint.allSatisfy(layout.storedNames.contains)
        }
    }

    /// The store an inserted model may replace a document of (an upsert), if any.
    private func upsertStore() -> DocumentStore? {
        for identifier in inserted {
            guard let model = registered[identifier], let layout = opened.layout(of: model),
                !Self.upsertConstraints(of: layout).isEmpty
            else { continue }
            return opened.store(of: layout.entity.name)
        }
        return nil
    }

    /// Gives an inserted, never-saved model another identity (its own changed `id`, or the
    /// identity of the document it replaces); a model registered under that identity is let go.
    private func rekey(_ model: any PersistentModel, from old: PersistentIdentifier, to new: PersistentIdentifier) {
        registered[old] = nil
        if let previous = registered[new], previous !== model { previous.persistentBackingData.context = nil }
        registered[new] = model
        inserted = inserted.map { $0 == old ? new : $0 }
        if changed.remove(old) != nil { changed.insert(new) }
        model.persistentBackingData.persistentIdentifier = new
    }

    /// Commits to the store, naming the model in a conflict; with the `.overwrite` policy,
    /// a conflict makes it look at the files again and write over their new versions.
    /// With a `token`, nothing is written and the answer is `nil` when another transaction
    /// landed after it (see `DocumentStore.commit(_:author:ifNoTransactionAfter:)`).
    private func commit(_ changes: [DocumentChange], to store: DocumentStore, ifNoTransactionAfter token: Int64?)
        throws(FolioError) -> CommitSummary?
    {
        do {
            return try store.commit(changes, author: author, ifNoTransactionAfter: token)
        } catch FolioError.Kind.conflict
            where changes.first.map({ opened.configuration(of: $0.entity).conflicts }) == .overwrite
        {
            _ = try store.refresh()
            return try store.commit(changes.compactMap { rebased($0, in: store) }, author: author)
        } catch let error where error.kind == .conflict {
            let path = error.path ?? ""
            let reason = error.reason
            let fileName = path.split(separator: "/").last.map(String.init) ?? path
            let model = registered.keys.first { fileName == $0.id.uuidString + ".json" }
            // The store's reason already says what happened to the file ("changed on disk since it was read ...").
            throw .conflict(path: path, reason: "\(model?.description ?? "a model"): \(reason)")
        }
    }

    /// A change based on the document's version on disk now (a delete of a file that is
    /// gone already is dropped).
    private func rebased(_ change: DocumentChange, in store: DocumentStore) -> DocumentChange? {
        switch change {
        case .put(let document, _):
            return .put(document, basedOn: store.document(entity: document.entity, id: document.id)?.version)
        case .delete(let version):
            return store.document(entity: version.path.entity, id: version.path.id).map { .delete($0.version) }
        }
    }
}

import Synchronization

/// The documents changed since a context last looked, gathered from any thread: the
/// container's listeners fill it, the context empties it on its own thread.
final class ChangeInbox: Sendable {
    private let pending = Mutex<Set<PersistentIdentifier>>([])

    /// Adds documents; returns whether the inbox held none before, when whoever takes it
    /// whole must be told (a `ResultsObserver` sends one update, not one per change).
    @discardableResult
    func add(_ documents: Set<PersistentIdentifier>) -> Bool {
        pending.withLock { pending in
            defer { pending.formUnion(documents) }
            return pending.isEmpty
        }
    }

    func take() -> Set<PersistentIdentifier> {
        pending.withLock { pending in
            defer { pending = [] }
            return pending
        }
    }
}

extension ModelContext {
    /// Brings the registered models up to date with the documents other contexts saved and
    /// the store found changed on disk since this context last looked: each takes the stored
    /// values, or leaves the context when its document is gone. A model with unsaved changes
    /// keeps them, and saving it then conflicts, as before. The observers of each property a
    /// refill changes are told, as of an assignment. Runs before every fetch, at a
    /// `ResultsObserver`'s update, and on the main actor for the main context as soon as
    /// changes arrive.
    func mergeChanges() {
        let documents = inbox.take()
        guard !documents.isEmpty, !registered.isEmpty else { return }
        for identifier in documents {
            guard let model = registered[identifier], !changed.contains(identifier),
                !inserted.contains(identifier), !deleted.contains(identifier)
            else { continue }
            let data = model.persistentBackingData
            guard
                let stored = opened.store(of: identifier.entityName).document(
                    entity: identifier.entityName, id: identifier.id)
            else {
                data.context = nil
                data.document = nil
                registered[identifier] = nil
                continue
            }
            // This context's own save, or a change it already took.
            guard stored.version != data.document?.version, let layout = opened.layout(of: stored) else { continue }
            // Observers hear a refill as they hear an assignment, of what it changes.
            let names = ModelDocument.changedProperties(from: data.document, to: stored, layout: layout)
            model._$notifyObservers(.willChange, of: names)
            recordingIssue { () throws(FolioError) in
                try ModelDocument.fill(data, from: stored, layout: layout, context: self)
            }
            model._$notifyObservers(.didChange, of: names)
        }
    }
}

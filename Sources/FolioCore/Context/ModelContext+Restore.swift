import FolioJSON
import Foundation

extension ModelContext {
    /// Gives a model the values a revision of its store's git repository holds for it, all
    /// of them or only the properties named, as a pending change: the next `save()` writes
    /// it, and `rollback()` drops it, as with any edit. An undo that lasts across launches:
    ///
    /// ```swift
    /// let changes = try context.restore(timer, from: "HEAD~1", properties: ["name"])
    /// try context.save()
    /// ```
    ///
    /// The restored document is `RecordRestore`'s: checked against the schema, the
    /// revision's soft delete taken with the whole model, a relationship to a model the store
    /// no longer holds cleared. The save is based on the version of the file the model was
    /// read from, so a file changed since is a `.conflict` and nothing is written. Unsaved
    /// changes of the model are replaced by the restored values. Returns the members that
    /// change in the store (the value stored now as `old`); empty when its file already holds
    /// the revision's values, and then nothing is pending unless the model had unsaved
    /// changes, which give way to those values. Folio's: SwiftData keeps no past.
    ///
    /// - Throws: what `RecordRestore` throws for the revision and the record; `.notFound`
    ///   for a model the store holds no file of (unsaved, or purged: `RecordRestore`'s
    ///   `commit()` brings a purged record back); `.invalidInput` for a restore that would
    ///   change other records too (a relationship both sides store), which
    ///   `RecordRestore.commit()` writes in one transaction; `.misuse` for a model of
    ///   another container.
    @discardableResult
    public func restore<Model: PersistentModel>(
        _ model: Model, from revision: String, properties names: [String]? = nil
    ) throws(FolioError) -> [PropertyChange] {
        let identifier = model.persistentModelID
        guard let layout = opened.layout(of: model) else {
            throw .misuse("\(identifier) is not a model of this context's container, so it cannot be restored here")
        }
        let data = model.persistentBackingData
        let store = opened.store(of: identifier.entityName)
        let restore = try RecordRestore(of: identifier.id, in: store, from: revision, properties: names)
        guard let read = data.document?.version, let current = restore.current else {
            throw FolioError(
                .notFound, "the store holds no file of \(identifier) now, so it has no model to restore",
                path: store.root,
                hint: "save a new model first; bring a purged record back with RecordRestore(of:in:from:).commit()")
        }
        // A model with unsaved changes takes the revision's values even where its file holds them already.
        guard !restore.isUnchanged || changed.contains(identifier) else { return [] }
        guard restore.changes.count <= 1 else {
            throw FolioError(
                .invalidInput,
                "restoring \(identifier) from \(revision) changes related records too (a relationship both sides store)",
                path: store.root, hint: "write it with RecordRestore(of:in:from:).commit(), one transaction for all")
        }
        var content = current.content
        var blobs: [String: [UInt8]?] = [:]
        if case .put(let document, _)? = restore.changes.first { (content, blobs) = (document.content, document.blobs) }
        try ModelDocument.fill(
            data, from: StoredDocument(version: read, content: content), layout: layout, context: self, blobs: blobs)
        for name in blobs.keys { data.markChanged(name) }
        data.context = self
        registered[identifier] = model
        changed.insert(identifier)
        return restore.properties
    }
}

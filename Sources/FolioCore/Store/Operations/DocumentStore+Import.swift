import FolioJSON
import Foundation

extension DocumentStore {
    /// One document of an import, with the version of the stored document it replaces
    /// (`nil` for a new one), as `commit`'s `.put` takes them.
    public typealias ImportedDocument = (document: Document, basedOn: DocumentVersion?)

    /// Writes the documents `next` hands over, one at a time until it returns `nil`, as one
    /// transaction: all of them or, on any error (one `next` throws included), none.
    ///
    /// The bulk form of `commit`, for the documents of one entity folder (`entity`'s
    /// hierarchy): memory holds each document's path and stamp, not its content, however
    /// many there are. Each document is checked and staged beside its target as it comes,
    /// and its entry added to the folder's new cache file; the plan is written once all are
    /// staged, then the transaction commits as `commit`'s does, with its history record.
    /// Documents that are already on disk as written count as unchanged and are not written.
    ///
    /// Unlike `commit`'s, the summary's `versions` is empty (that map of every document is
    /// what an import does not hold), and the folder is loaded again, from its new cache
    /// file, when next used. Only the documents handed over are written: where the other
    /// side of a relationship is stored too (many-to-many, one-to-one), keeping it current
    /// is `commit(changes(putting:))`'s. `next` runs under the store's write lock, and may
    /// read the documents of the folders a document's checks read (the entity's and those
    /// its relationships point into), which are loaded first.
    ///
    /// ```swift
    /// let rows = [["name": "Tea"], ["name": "Coffee"]] as [JSONObject]
    /// var remaining = rows[...]
    /// let summary = try store.importDocuments(into: "Timer") { () throws(FolioError) -> DocumentStore.ImportedDocument? in
    ///     guard let values = remaining.popFirst() else { return nil }
    ///     return (try store.newDocument(entity: "Timer", values: values), nil)
    /// }
    /// print(summary.written)  // 2
    /// ```
    ///
    /// `committing` is told, past the commit point, how many of the staged files are in place
    /// of how many (a progress bar's second stage; moving 100,000 files takes seconds).
    @discardableResult
    public func importDocuments(
        into entity: String, author: String? = nil,
        committing: (_ placed: Int, _ total: Int) -> Void = { _, _ in },
        _ next: () throws(FolioError) -> ImportedDocument?
    ) throws(FolioError) -> CommitSummary {
        try importPrepared(into: entity, author: author, committing: committing) { () throws(FolioError) in
            try next().map { document, basedOn throws(FolioError) in try prepared(document, basedOn: basedOn) }
        }
    }

    /// `importDocuments`, with each document's file made by `next` (`prepared(_:basedOn:)`):
    /// an import that reads its records on another thread makes them there.
    package func importPrepared(
        into entity: String, author: String? = nil,
        committing: (_ placed: Int, _ total: Int) -> Void = { _, _ in },
        _ next: () throws(FolioError) -> PreparedDocument?
    ) throws(FolioError) -> CommitSummary {
        let schema = memory.schema
        let (folderName, checked) = (schema.folder(of: entity).folder, schema.folders(checkedWith: entity))
        // Before the write lock: loading under it would wait for itself. The documents'
        // checks (`newDocument`, in `next`) read the folders their references point into.
        try load(checked)
        return try lock.withLock(.exclusive) { () throws(FolioError) -> CommitSummary in
            try prepareToWrite()
            var run = try ImportRun(store: self, folder: folderName, author: author)
            do throws(FolioError) {
                while let prepared = try next() { try run.add(prepared) }
                return try run.finish(committing: committing)
            } catch {
                run.abandon()
                throw error
            }
        }
    }
}

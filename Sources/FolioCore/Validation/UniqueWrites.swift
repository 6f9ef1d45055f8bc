import FolioJSON
import Foundation

/// A value a write would give a document that another document holds too, under one of
/// the uniqueness constraints `check` holds the store to: what `UniqueWrites` finds.
package struct UniqueClash: Sendable, Equatable {
    /// The folder of the document written (its hierarchy's root entity) and its identity.
    package var entity: String
    package var id: UUID
    /// Where the document written came from in its batch (an import's line), if anywhere.
    package var row: Int?
    /// The constraint's properties, and the values the document would hold for them.
    package var constraint: [String]
    package var values: [JSONValue]
    /// The other document: its identity, its file when the store holds it, and its row
    /// when it is written in the same batch.
    package var holder: UUID
    package var holderPath: DocumentPath?
    package var holderRow: Int?

    /// The values as `check` shows them: `"name" "home"`, or `(a, b) = (1, 2)`.
    package var shownValues: String { StoreAudit.shown(values, of: constraint) }
}

/// The uniqueness of the values a batch of writes gives its documents, against each other
/// and against the other documents of the store, before anything is written: what the
/// tool's writing commands check, so that no write leaves two documents that `check` would
/// report as sharing a unique value.
///
/// The constraints are `check`'s (`StoreAudit.uniquenessConstraints`): `#Unique` lists,
/// `.unique` attributes and the manifest's rules, of each folder's entity; a constraint of
/// only the `id` that names the files holds by itself. Soft-deleted documents and missing
/// or `null` values take no part, as in `check`. Only a value a document does not hold
/// already is refused, so a write that leaves a duplicate a merge made as it was (an edit of
/// another property) goes through; `check` keeps reporting it.
///
/// Memory holds the values the batch writes and its identities, never the store's
/// documents: `compareWithStore` reads each folder once, only the members constraints name.
package struct UniqueWrites {
    /// What the batch writes under one constraint: each value with its first writer.
    private struct Writer {
        var id: UUID
        var row: Int?
        var path: DocumentPath?
        /// Whether the document did not hold this value before the write.
        var isNew: Bool
    }

    private let store: DocumentStore
    private let audit: StoreAudit
    /// Per folder: its constraints, and per constraint the values the batch writes.
    private var folders: [String: (constraints: [[String]], written: [[[JSONValue]: Writer]])] = [:]
    /// Per folder, the identities the batch writes or deletes: their stored values are replaced.
    private var replaced: [String: Set<UUID>] = [:]
    /// The clashes among the batch's own documents, and with the store's.
    private var amongWrites: [UniqueClash] = []
    private var withStore: [UniqueClash] = []

    /// An empty batch of writes to the store.
    package init(_ store: DocumentStore) {
        self.store = store
        audit = store.audit
    }

    /// Every clash found so far, in the batch's order (rows, then identities).
    package var clashes: [UniqueClash] {
        (amongWrites + withStore).sorted {
            ($0.row ?? 0, $0.id.uuidString, $0.constraint.joined(separator: ","))
                < ($1.row ?? 0, $1.id.uuidString, $1.constraint.joined(separator: ","))
        }
    }

    /// Whether a clash was found so far: cheaper than `clashes`, which sorts them.
    package var hasClashes: Bool { !amongWrites.isEmpty || !withStore.isEmpty }

    /// Whether the batch gives any document a value a constraint holds unique, which the
    /// store's other documents could hold too.
    package var writesUniqueValues: Bool {
        folders.values.contains { $0.written.contains { !$0.isEmpty } }
    }

    /// Takes in every change of a transaction: each document put, and each deleted.
    package mutating func add(_ changes: [DocumentChange]) {
        for change in changes {
            switch change {
            case .put(let document, let basedOn):
                let old = basedOn.flatMap { store.document(entity: $0.path.entity, id: $0.path.id) }
                add(document, replacing: old?.content, at: basedOn?.path)
            case .delete(let version):
                replaced[version.path.entity, default: []].insert(version.path.id)
            }
        }
    }

    /// Takes in a document the batch writes, with the content it replaces (`nil` for a new
    /// document), the file it is in and its row in the batch. A value another document of
    /// the batch writes is a clash at once; those the store holds are found by
    /// `compareWithStore`.
    package mutating func add(
        _ document: Document, replacing old: JSONObject?, at path: DocumentPath? = nil, row: Int? = nil
    ) {
        let folder = document.entity
        if folders[folder] == nil {
            var constraints: [[String]] = []
            if let entity = audit.schema.entities[folder] {
                constraints = audit.uniquenessConstraints(of: entity).filter {
                    !$0.isEmpty && ($0 != ["id"] || !entity.hasOwnIdentity)
                }
            }
            folders[folder] = (constraints, Array(repeating: [:], count: constraints.count))
        }
        // A folder without constraints keeps nothing of its documents, however many an import writes.
        guard let constraints = folders[folder]?.constraints, !constraints.isEmpty else { return }
        replaced[folder, default: []].insert(document.id)
        guard document.content[ReservedKey.deleted] == nil else { return }
        let wasLive = old.map { $0[ReservedKey.deleted] == nil } ?? false
        for (index, constraint) in constraints.enumerated() {
            guard let key = StoreAudit.uniqueKey(constraint, of: document.content) else { continue }
            let isNew = !wasLive || old.flatMap { StoreAudit.uniqueKey(constraint, of: $0) } != key
            let writer = Writer(id: document.id, row: row, path: path, isNew: isNew)
            guard let first = folders[folder]?.written[index][key] else {
                folders[folder]?.written[index][key] = writer
                continue
            }
            // The one that takes the value from the other is refused; a duplicate both held already is check's.
            let (taker, holder) = isNew ? (writer, first) : (first, writer)
            guard taker.isNew else { continue }
            amongWrites.append(
                UniqueClash(
                    entity: folder, id: taker.id, row: taker.row, constraint: constraint, values: key,
                    holder: holder.id, holderPath: holder.path, holderRow: holder.row))
        }
    }

    /// Finds the documents of the store, other than those the batch writes or deletes, that
    /// hold a value the batch gives another document: one pass over each folder written
    /// into that has a constraint, reading only the members constraints name. Called again,
    /// it replaces what it found before with what the store holds now.
    package mutating func compareWithStore() {
        var found: [UniqueClash] = []
        for (folder, entry) in folders.sorted(by: { $0.key < $1.key })
        where entry.written.contains(where: { !$0.isEmpty }) {
            let ours = replaced[folder] ?? []
            let members = Set(entry.constraints.joined()).union([ReservedKey.deleted]).sorted()
            let first = found.count
            _ = store.forEachDocument(
                inFolder: folder, members: members, startingOver: { found.removeSubrange(first...) }
            ) {
                path, content in
                guard !ours.contains(path.id), content[ReservedKey.deleted] == nil else { return }
                for (index, constraint) in entry.constraints.enumerated() {
                    guard let key = StoreAudit.uniqueKey(constraint, of: content),
                        let writer = entry.written[index][key], writer.isNew
                    else { continue }
                    found.append(
                        UniqueClash(
                            entity: folder, id: writer.id, row: writer.row, constraint: constraint, values: key,
                            holder: path.id, holderPath: path, holderRow: nil))
                }
            }
        }
        withStore = found
    }
}

extension DocumentStore {
    /// The values the changes of one transaction would give their documents that other
    /// documents hold too (see `UniqueWrites`); empty when every one is unique.
    package func uniqueClashes(in changes: [DocumentChange]) -> [UniqueClash] {
        var writes = UniqueWrites(self)
        writes.add(changes)
        writes.compareWithStore()
        return writes.clashes
    }

    /// Commits the changes of one transaction unless one gives a document a unique value
    /// another document holds: then nothing is written, and `refusal` makes the error.
    ///
    /// The check reads the store without its write lock, which a scan of a large folder must
    /// not hold for its length; so the changes are committed only if no transaction of any
    /// process landed since the check began (`commit(_:author:ifNoTransactionAfter:)`), and
    /// checked again against what did. Two processes writing one value at once cannot both
    /// pass. A store without history has no token to compare: the check is then as of its read.
    @discardableResult
    package func commit(
        _ changes: [DocumentChange], author: String?, refusingClashes refusal: ([UniqueClash]) -> FolioError
    ) throws(FolioError) -> CommitSummary {
        var writes = UniqueWrites(self)
        writes.add(changes)
        guard writes.writesUniqueValues else { return try commit(changes, author: author) }
        for _ in 0..<Self.uniqueCheckAttempts {
            // Taken before the folders are brought up to date, so that whatever lands after
            // what they show is after the token too. Folders that reflect every transaction up
            // to it (the common case: nobody else wrote) need no walk; unloaded ones are read
            // by the check itself.
            let token = latestTransactionToken()
            if let token, !reflectsTransactions(through: token) {
                try refresh()
                // The stored values the changes replace, as the refresh left them.
                writes = UniqueWrites(self)
                writes.add(changes)
            }
            writes.compareWithStore()
            guard !writes.hasClashes else { throw refusal(writes.clashes) }
            if let summary = try commit(changes, author: author, ifNoTransactionAfter: token) { return summary }
        }
        throw FolioError(
            .locked,
            "other processes saved to the store \(Self.uniqueCheckAttempts) times while this write checked that its values are unique; nothing was written",
            path: root, hint: "run it again once they are done")
    }

    /// How many times `commit(_:author:refusingClashes:)` checks again before it gives up.
    static let uniqueCheckAttempts = 50
}

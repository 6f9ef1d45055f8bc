import FolioJSON
import Foundation

/// The records that differ between two states of a store kept in git: two commits, or a
/// commit and the working tree. Each record is a `RecordDifference`, matched by its
/// identity, so a record that moved to another day folder is one change.
///
/// ```swift
/// let diff = try StoreDiff(inStoreAt: "/home/me/Timers", from: "HEAD~1")
/// for record in diff.records {
///     print(record.kind, record.entity, record.id, record.properties.map(\.name))
/// }
/// ```
///
/// It costs what changed: one `git rev-parse` finds the repository and both commits, git
/// lists the changed files of the store's folder with their blobs (`diff-tree` between two
/// commits, `diff-index` and `ls-files --others` against the working tree), one
/// `git cat-file --batch` reads the changed blobs, and the working tree's changed
/// files are read directly, beneath the store's folder without following a link. Git runs
/// as a reader only (see `RecordHistory`): nothing is written to the repository, its index
/// or its work tree.
public struct StoreDiff: Sendable {
    /// The older state's commit (whole hash).
    public var from: String
    /// The newer state's commit, or nil for the working tree.
    public var to: String?
    /// The records that differ, by entity and then by path.
    public var records: [RecordDifference]

    /// The records of the store at `folder` (which may be a folder inside a work tree) that
    /// differ from revision `old` (`HEAD` when nil) to revision `new` (the working tree when
    /// nil). A revision is a branch, a tag, a commit or the start of its hash, `HEAD~2`.
    ///
    /// Throws `.invalidStore` when the folder is in no git repository, `.notFound` for a
    /// revision that names no commit, `.invalidInput` for text that is no revision (one
    /// starting with `-` is refused before git runs). A version of a record that does not
    /// read is no error: its difference says why (`unreadable`).
    public init(inStoreAt folder: String, from old: String? = nil, to new: String? = nil) throws(FolioError) {
        try self.init(folder: folder, from: old, to: new, selection: nil)
    }

    /// The records of `store` that differ from revision `old` (`HEAD` when nil) to revision
    /// `new` (the working tree when nil), only those of `entity` (and the entities that
    /// inherit from it) when given, and of those only the ones `filter` matches in either
    /// state (a query of `entity`, as `DocumentStore.parseQuery` reads it). A filter that
    /// reads related records (`session.boat.name == "Aurora"`) reads them as each state holds
    /// them: it runs on the store at each commit (a first read of a revision, as `--at`).
    ///
    /// Throws as `init(inStoreAt:from:to:)`, and `.notFound` for an entity the store's
    /// schema lacks.
    public init(
        of store: DocumentStore, from old: String? = nil, to new: String? = nil, entity: String? = nil,
        matching filter: QueryExpression? = nil
    ) throws(FolioError) {
        let schema = store.memory.schema
        var selection: RecordSelection?
        if let entity {
            _ = try schema.entity(entity, in: store.root)
            selection = RecordSelection(entity: entity, filter: filter, schema: schema)
        } else if filter != nil {
            throw .invalidInput("a filter of a store's differences needs the entity it is a query of")
        }
        try self.init(folder: store.root, from: old, to: new, selection: selection, store: store)
    }

    private init(
        folder: String, from old: String?, to new: String?, selection: RecordSelection?, store: DocumentStore? = nil
    ) throws(FolioError) {
        let (repository, commits) = try StoreRepository.resolving(
            [old ?? "HEAD"] + (new.map { [$0] } ?? []), inStoreAt: folder)
        from = commits[0]
        to = commits.count > 1 ? commits[1] : nil
        var selection = selection
        if let store { try selection?.matchRelatedRecords(of: store, in: repository, from: from, to: to) }
        let changed: ChangedFiles
        if let to {
            changed = try ChangedFiles(in: repository, from: from, to: to)
        } else {
            changed = try ChangedFiles(in: repository, workingTreeAgainst: from)
        }
        // Only the store's documents and their `.externalStorage` files, grouped by identity:
        // another file is no record.
        var byID: [UUID: [(path: DocumentPath, file: ChangedFiles.File)]] = [:]
        for file in changed.files {
            guard let path = DocumentPath(relativePath: file.path) else { continue }
            guard selection?.holds(folder: path.entity) ?? true else { continue }
            byID[path.id, default: []].append((path, file))
        }
        try Self.addUnchangedDocuments(to: &byID, in: repository, from: from, to: to)
        let files = byID.values.joined()
        let documents = files.filter { $0.path.blobProperty == nil }
        let blobs = try repository.blobs(
            Array(Set(documents.flatMap { [$0.file.before, $0.file.after].compactMap { $0 } })))
        let sizes = try repository.sizes(
            ofBlobs: Set(
                files.filter { $0.path.blobProperty != nil }.flatMap { [$0.file.before, $0.file.after] }.compactMap {
                    $0
                }))
        let workingTree = to == nil ? try OpenFolder(root: folder) : nil
        var records: [RecordDifference] = []
        for (id, files) in byID {
            let reading = VersionReading(blobs: blobs, sizes: sizes, workingTree: workingTree)
            guard let difference = reading.difference(id: id, files: files.sorted { $0.path < $1.path }),
                selection?.holds(difference) ?? true
            else { continue }
            records.append(difference)
        }
        self.records = records.sorted { ($0.entity, $0.path) < ($1.entity, $1.path) }
    }

    /// For each record whose `.externalStorage` files changed and whose document did not,
    /// its document as the older and newer commits hold it (the working tree's is read from
    /// its file): unchanged, it is where the files are, and tells the record's entity and
    /// members. A file with no document in either state is no record's, and is left out.
    private static func addUnchangedDocuments(
        to byID: inout [UUID: [(path: DocumentPath, file: ChangedFiles.File)]], in repository: StoreRepository,
        from: String, to: String?
    ) throws(FolioError) {
        let unpaired = byID.compactMap { id, files in
            files.contains { $0.path.blobProperty == nil } ? nil : (id, files[0].path.document)
        }
        guard !unpaired.isEmpty else { return }
        let names = unpaired.flatMap { _, path in
            [from, to].compactMap { commit in commit.map { "\($0):\(repository.prefix)\(path.relativePath)" } }
        }
        let found = try repository.blobSizes(names)
        let perRecord = to == nil ? 1 : 2
        for (index, (id, path)) in unpaired.enumerated() {
            let before = found[index * perRecord]?.object
            let after = to == nil ? nil : found[index * perRecord + 1]?.object
            guard before != nil || after != nil else {
                byID[id] = nil
                continue
            }
            byID[id, default: []].append(
                (path, ChangedFiles.File(path: path.relativePath, before: before, after: after)))
        }
    }

    /// The entities that have differences, in order, each with how many records of it
    /// became what (`folio diff --stat`).
    public var counts: [EntityCount] {
        var counts: [EntityCount] = []
        for record in records {
            if counts.last?.entity != record.entity { counts.append(EntityCount(entity: record.entity)) }
            counts[counts.count - 1].records[record.kind, default: 0] += 1
        }
        return counts
    }

    /// How many records of one entity differ, by what became of them.
    public struct EntityCount: Sendable, Hashable {
        /// The entity.
        public var entity: String
        /// The number of records by what became of them; a kind no record had is left out.
        public var records: [RecordChange.Kind: Int] = [:]
        /// All the records of the entity that differ.
        public var total: Int { records.values.reduce(0, +) }
    }
}

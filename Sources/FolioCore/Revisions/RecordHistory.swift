import FolioJSON
import Foundation

/// A record's past as git holds it: every commit that changed the record's file, newest
/// first, with the old and new value of each member it changed.
///
/// A record is followed by its identity, the UUID its file is named for, wherever its file
/// is: a move to another day folder is one record moving, and a record whose file is gone
/// from the work tree (purged) still has its past.
///
/// ```swift
/// let history = try RecordHistory(of: id, inStoreAt: "/home/me/Timers")
/// for change in history.changes {
///     print(change.commit.prefix(7), change.authorName, change.kind, change.properties.map(\.name))
/// }
/// ```
///
/// Git runs as a reader only: with an argument vector, `GIT_OPTIONAL_LOCKS=0`, and no
/// command that writes to the repository. Reading waits for git (three or four runs), so an
/// app reads a history off its main actor.
public struct RecordHistory: Sendable {
    /// The record's identity.
    public var id: UUID
    /// The commit the history was read back from.
    public var head: String
    /// The commits that changed the record, newest first. In a merge only one that changed
    /// it from every parent (both sides changed it) is listed, compared with its first parent.
    public var changes: [RecordChange]
    /// The commit a shallow clone's history ends at, when the record's oldest change listed
    /// is there: the record may be older than its `created` change says
    /// (`git fetch --unshallow` fetches the rest).
    public var endsAtShallowBoundary: String?

    /// The past of the record with identity `id` in the store at `folder` (which may be a
    /// folder inside a work tree), read back from `revision` (a branch, tag or commit;
    /// `HEAD` when nil).
    ///
    /// Throws `.invalidStore` when the folder is in no git repository, `.notFound` for a
    /// revision that names no commit (or a repository with none yet), `.invalidInput` for
    /// text that is no revision (one starting with `-` is refused before git runs).
    public init(of id: UUID, inStoreAt folder: String, from revision: String? = nil) throws(FolioError) {
        let (repository, named) = try StoreRepository.resolving([revision ?? "HEAD"], inStoreAt: folder)
        self.id = id
        head = named[0]
        let output = try repository.checked([
            "log", "-z", "--raw", "--no-abbrev", "--no-renames", "--root", "--diff-merges=first-parent",
            // One pattern for the document and its `.bin` files: git matches every changed path
            // of every commit against each pattern, and two cost a year of commits a third more.
            "--no-color", CommitListing.format, head, "--", ":(glob)**/\(id.uuidString).*",
        ])
        let commits = try CommitListing(output).commits
        let prefix = repository.prefix
        // Only the store's documents and their `.externalStorage` files: a file of that name
        // out of place or outside the store is not the record's.
        var files = commits.map { commit in
            commit.files.compactMap { file -> CommitListing.FileChange? in
                guard file.path.hasPrefix(prefix) else { return nil }
                let relative = String(file.path.dropFirst(prefix.count))
                guard let path = DocumentPath(relativePath: relative), path.id == id else { return nil }
                return CommitListing.FileChange(before: file.before, after: file.after, path: relative)
            }
        }
        try Self.addUnchangedDocuments(to: &files, of: commits, in: repository)
        let documents = files.joined().filter { $0.path.hasSuffix(".json") }
        let blobs = try repository.blobs(Array(Set(documents.flatMap { [$0.before, $0.after].compactMap { $0 } })))
        let sizes = try repository.sizes(
            ofBlobs: Set(
                files.joined().filter { !$0.path.hasSuffix(".json") }.flatMap { [$0.before, $0.after] }.compactMap {
                    $0
                }))
        changes = zip(commits, files).compactMap { commit, files in
            Self.change(commit, files: files, blobs: blobs, sizes: sizes)
        }
        if let oldest = changes.last, oldest.parents.isEmpty, oldest.kind == .created,
            try repository.isShallowBoundary(oldest.commit)
        {
            endsAtShallowBoundary = oldest.commit
        }
    }

    /// For each commit that changed the record's `.externalStorage` files and not its
    /// document, the document as that commit holds it, unchanged (its blob both before and
    /// after): it tells the record's members at that commit. A commit whose files have no
    /// document beside them changed no record, and keeps no files.
    private static func addUnchangedDocuments(
        to files: inout [[CommitListing.FileChange]], of commits: [CommitListing.Commit], in repository: StoreRepository
    ) throws(FolioError) {
        let unpaired = files.indices.compactMap { index -> (Int, DocumentPath)? in
            guard !files[index].isEmpty, !files[index].contains(where: { $0.path.hasSuffix(".json") }) else {
                return nil
            }
            let file = files[index].first { $0.after != nil } ?? files[index][0]
            return DocumentPath(relativePath: file.path).map { (index, $0.document) }
        }
        let found = try repository.blobSizes(
            unpaired.map { index, path in
                "\(commits[index].hash):\(repository.prefix)\(path.relativePath)"
            })
        for ((index, path), document) in zip(unpaired, found) {
            guard let document else {
                files[index] = []
                continue
            }
            files[index].append(
                CommitListing.FileChange(before: document.object, after: document.object, path: path.relativePath))
        }
    }

    /// What one commit did to the record, from the files of it that the commit changed
    /// (its document, and its `.externalStorage` files, whose blobs' sizes are in `sizes`);
    /// nil when it changed none of them after all.
    static func change(
        _ commit: CommitListing.Commit, files all: [CommitListing.FileChange], blobs: [String: [UInt8]],
        sizes: [String: Int]
    ) -> RecordChange? {
        let files = all.filter { $0.path.hasSuffix(".json") }
        let blobChanges = PropertyChange.differences(
            ofBlobs: all.compactMap { file in
                DocumentPath(relativePath: file.path)?.blobProperty.map { property in
                    (property, StoredBlob(file.before, sizes: sizes), StoredBlob(file.after, sizes: sizes))
                }
            })
        let before = files.filter { $0.before != nil }.sorted { $0.path < $1.path }.first
        let after = files.filter { $0.after != nil }.sorted { $0.path < $1.path }.first
        guard before != nil || after != nil else { return nil }
        var unreadable: [String] = []
        func read(_ blob: String?, _ path: String, _ when: String) -> JSONObject? {
            guard let blob else { return nil }
            guard let bytes = blobs[blob] else {
                unreadable.append("\(path) \(when) commit \(commit.hash.prefix(7)) is missing from the repository")
                return nil
            }
            do {
                guard let object = try JSONReader().read(bytes, file: path).objectValue else {
                    unreadable.append("\(path) \(when) commit \(commit.hash.prefix(7)) is not a JSON object")
                    return nil
                }
                return object
            } catch {
                unreadable.append("\(path) \(when) commit \(commit.hash.prefix(7)) does not parse: \(error.message)")
                return nil
            }
        }
        let old = before.flatMap { read($0.before, $0.path, "before") }
        let new = after.flatMap { read($0.after, $0.path, "in") }
        // Only the record's files changed that hold no change of it: a blob that moved with nothing else.
        if blobChanges.isEmpty, files.allSatisfy({ $0.before == $0.after }) { return nil }
        let kind = RecordChange.Kind.between(pathBefore: before?.path, pathAfter: after?.path, old: old, new: new)
        let comparable = unreadable.isEmpty
        return RecordChange(
            commit: commit.hash, parents: commit.parents, authorName: commit.authorName,
            authorEmail: commit.authorEmail, date: commit.date, subject: commit.subject, kind: kind,
            pathBefore: before?.path, pathAfter: after?.path,
            properties: (comparable ? PropertyChange.differences(from: old, to: new) : []) + blobChanges, content: new,
            unreadable: comparable ? nil : unreadable.joined(separator: "; "))
    }

    /// The changes that changed the member `name`.
    public func changes(touching name: String) -> [RecordChange] {
        changes.filter { change in change.properties.contains { $0.name == name } }
    }
}

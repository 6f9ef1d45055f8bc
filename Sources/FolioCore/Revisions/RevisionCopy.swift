import Foundation
import Glibc

/// The store as a commit held it, in a folder of Folio's own that the whole engine
/// (queries and their indexes, relationships, `check`) opens as a store.
///
/// Nothing in the repository changes: the copy is made with reading commands only
/// (`rev-parse`, `ls-tree`, `cat-file`), never a checkout. A copy for reading holds only the
/// revision's `folio.json` and Folio's own `.folio/` (its cache files): the documents stay in
/// git's objects and are read from there (see `RevisionTree`), so the first read of a
/// revision costs reading its blobs, not writing them out and reading them back. A copy is
/// named for the git tree of the store's folder at the commit, so any two commits where the
/// store held the same files share one. A kept copy lives in the store's
/// `.folio/revisions/` (which git ignores, as all of `.folio/`) for the next command that
/// reads that tree; a private one is made in a scratch folder, for a store whose `.folio/`
/// cannot be written, or with the documents' files, for a reader that changes them (an app
/// migrating the past to its own schema).
///
/// A revision read costs what differs from the one read before: a new kept copy is made by
/// taking over the copy used last, when no process is reading it, with its cache files.
/// Their entries are stamped with the objects' ids, so they still vouch for every file the
/// two revisions share. A reader holds a shared `flock` on its copy's folder as long as it
/// reads (`inUse`), and a copy is only taken over or pruned under an exclusive one that
/// nobody else holds.
///
/// Only the store's regular files are read: a link (which Folio never follows), a
/// submodule and the hidden files (`.folio/`, `.gitignore`) are left out.
package struct RevisionCopy: Sendable {
    /// The commit read, as its whole hash.
    package let commit: String
    /// The id of the store folder's tree at that commit.
    package let tree: String
    /// The copy's folder, a store of its own.
    package let root: String
    /// The scratch folder holding a private copy, to remove when it is no longer read.
    package let scratch: ScratchFolder?
    /// The shared lock on a kept copy, held while this value (or a copy of it) lives.
    package let inUse: Reading?
    /// The tree the documents are read from, for a copy that holds none; nil for a private
    /// copy with its files.
    package let objects: RevisionTree?

    /// A shared `flock` on a kept copy's folder: while one is held, no command takes the copy
    /// over for another revision or prunes it. Released when the last reference goes.
    package final class Reading: Sendable {
        let descriptor: Int32
        init(_ descriptor: Int32) { self.descriptor = descriptor }
        deinit { close(descriptor) }
    }

    /// How many kept copies a store's `.folio/revisions/` holds at most.
    package static let keptCopies = 4
    /// Where kept copies live, relative to the store's folder.
    static let folder = ".folio/revisions"

    /// The store at `storeFolder` as `revision` held it. For reading, a copy that takes its
    /// documents from git: kept when the store's `.folio/` can be written, else private. When
    /// `writable`, a private copy with the documents' files, which may be changed.
    ///
    /// - Throws: `.invalidInput` for text that is not a revision (one that git could read as
    ///   an option is refused before git runs); `.invalidStore` when the folder is in no git
    ///   repository's work tree; `.notFound` when the revision names no commit, the commit
    ///   holds no store there, or the repository lacks one of its files' contents;
    ///   `.fileSystem` when the copy cannot be written.
    package static func make(of storeFolder: String, at revision: String, writable: Bool = false) throws(FolioError)
        -> RevisionCopy
    {
        let (repository, commits) = try StoreRepository.resolving([revision], inStoreAt: storeFolder)
        guard let copy = try make(of: storeFolder, commit: commits[0], in: repository, writable: writable) else {
            throw FolioError(
                .notFound,
                "the store's folder did not exist at \(revision) (commit \(commits[0].prefix(7)))",
                path: storeFolder, hint: "see the commits that changed it with `git log --oneline -- .`")
        }
        return copy
    }

    /// The store at `storeFolder` as `commit` (a whole hash `repository` gave) held it, made
    /// as `make(of:at:writable:)` makes it; nil where the store's folder did not exist then.
    ///
    /// - Throws: as `make(of:at:writable:)`, but for a revision or store it cannot find.
    static func make(of storeFolder: String, commit: String, in repository: StoreRepository, writable: Bool = false)
        throws(FolioError) -> RevisionCopy?
    {
        guard let id = try repository.storeTree(at: commit) else { return nil }
        let tree = try RevisionTree(id, in: repository) { noStore(at: commit, in: repository) }
        let store = try OpenFolder(root: storeFolder)
        if !writable, let local = try? store.makeFolders(".folio"), local.whyNotWritable() == nil {
            let copies = KeptCopies(store: store, commit: commit)
            return try copies.copy(of: tree)
        }
        let scratch = try ScratchFolder(purpose: "revision")
        do {
            try FileSystem.makeFolders(atPath: scratch.path(of: "store"))
            let target = try OpenFolder(root: scratch.path(of: "store"))
            if writable {
                try write(try files(of: id, in: repository, commit: commit), into: target, from: repository, commit)
            } else {
                try writeManifest(of: tree, into: target, commit: commit)
            }
        } catch {
            scratch.remove()
            throw error
        }
        return RevisionCopy(
            commit: commit, tree: id, root: scratch.path(of: "store"), scratch: scratch, inUse: nil,
            objects: writable ? nil : tree)
    }

    /// Writes the tree's `folio.json` into `target`, unless it holds those bytes already.
    static func writeManifest(of tree: RevisionTree, into target: OpenFolder, commit: String) throws(FolioError) {
        guard let bytes = try tree.repository.blobs([tree.manifest])[tree.manifest] else {
            throw missingObject(StoreManifest.fileName, tree.manifest, in: tree.repository, commit)
        }
        if try target.status(of: StoreManifest.fileName) != nil {
            if (try? target.readFile(StoreManifest.fileName, limit: bytes.count + 1).bytes) == bytes { return }
            try target.removeFile(StoreManifest.fileName)
        }
        try target.createFile(StoreManifest.fileName, bytes: bytes, sync: false)
    }

    /// The error for a file whose object the repository lacks.
    static func missingObject(_ path: String, _ object: String, in repository: StoreRepository, _ commit: String?)
        -> FolioError
    {
        FolioError(
            .notFound,
            "the repository lacks the content of \(path) at \(commit.map { "commit \($0.prefix(7))" } ?? "this revision") (object \(object.prefix(12))): a partial or damaged clone",
            path: repository.folder, hint: "fetch the missing objects (`git fetch`), or read another revision")
    }

    /// Whether a file of the tree belongs in a copy: a regular file, not hidden.
    static func isCopied(path: String, mode: String) -> Bool {
        (mode == "100644" || mode == "100755") && !isHidden(path)
    }

    /// Whether a path has a hidden component (`.folio/`, `.gitignore`), which a copy leaves alone.
    static func isHidden(_ path: String) -> Bool {
        path.split(separator: "/").contains { $0.hasPrefix(".") }
    }

    /// The error for a commit whose tree holds no `folio.json` where the store is.
    static func noStore(at commit: String, in repository: StoreRepository) -> FolioError {
        FolioError(
            .notFound, "the folder held no \(StoreManifest.fileName) at commit \(commit.prefix(7)), so no store",
            path: repository.folder, hint: "read a later revision, where the store exists")
    }

    /// The files of `tree` a copy holds; a tree without `folio.json` is no store.
    static func files(of tree: String, in repository: StoreRepository, commit: String) throws(FolioError)
        -> [StoreRepository.TreeFile]
    {
        let files = try repository.files(inTree: tree).filter { isCopied(path: $0.path, mode: $0.mode) }
        guard files.contains(where: { $0.path == StoreManifest.fileName }) else {
            throw noStore(at: commit, in: repository)
        }
        return files
    }

    /// Writes `files` from git's objects into `target`, where none of them is yet.
    static func write(
        _ files: [StoreRepository.TreeFile], into target: OpenFolder, from repository: StoreRepository,
        _ commit: String
    ) throws(FolioError) {
        var madeFolders: Set<Substring> = [""]
        var start = 0
        while start < files.count {
            let batch = files[start..<min(start + RevisionTree.objectsPerRead, files.count)]
            start = batch.endIndex
            let contents = try repository.blobs(Array(Set(batch.map(\.blob))))
            for file in batch {
                guard let bytes = contents[file.blob] else {
                    throw missingObject(file.path, file.blob, in: repository, commit)
                }
                let parent = file.path.split(separator: "/").dropLast().joined(separator: "/")[...]
                if madeFolders.insert(parent).inserted { try target.makeFolders(String(parent)) }
                try target.createFile(file.path, bytes: bytes, sync: false)
            }
        }
    }
}

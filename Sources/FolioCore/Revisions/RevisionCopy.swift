import Foundation
import Glibc

/// The store as a commit held it, copied out of git's objects into a folder of Folio's own,
/// so that the whole engine (queries and their indexes, relationships, `check`) reads it as
/// it reads the working tree.
///
/// Nothing in the repository changes: the copy is made with reading commands only
/// (`rev-parse`, `ls-tree`, `diff-tree`, `cat-file`), never a checkout. A copy is named for the
/// git tree of the store's folder at the commit, so any two commits where the store held the
/// same files share one. A kept copy lives in the store's `.folio/revisions/` (which git
/// ignores, as all of `.folio/`) for the next command that reads that tree. A private copy is
/// made in a scratch folder, for a reader that changes it (an app migrating the past to its
/// own schema) or a store whose `.folio/` cannot be written.
///
/// A revision read costs what differs from the one read before: a new kept copy is made by
/// turning the copy used last, when no process is reading it, into the new tree, writing only
/// the files `git diff-tree` names; its cache files still vouch for the rest. A reader holds
/// a shared `flock` on its copy's folder as long as it reads (`inUse`), and a copy is only
/// turned or pruned under an exclusive one that nobody else holds.
///
/// Only the store's regular files are copied: a link (which Folio never follows), a
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

    /// A shared `flock` on a kept copy's folder: while one is held, no command turns the copy
    /// into another revision's or prunes it. Released when the last reference goes.
    package final class Reading: Sendable {
        let descriptor: Int32
        init(_ descriptor: Int32) { self.descriptor = descriptor }
        deinit { close(descriptor) }
    }

    /// How many kept copies a store's `.folio/revisions/` holds at most.
    package static let keptCopies = 4
    /// Where kept copies live, relative to the store's folder.
    static let folder = ".folio/revisions"
    /// How many blobs one `git cat-file --batch` reads, which bounds the memory a copy takes.
    static let blobsPerBatch = 2000

    /// The store at `storeFolder` as `revision` held it: a kept copy when `keep` and the
    /// store's `.folio/` can be written, else a private one.
    ///
    /// - Throws: `.invalidInput` for text that is not a revision (one that git could read as
    ///   an option is refused before git runs); `.invalidStore` when the folder is in no git
    ///   repository's work tree; `.notFound` when the revision names no commit, the commit
    ///   holds no store there, or the repository lacks one of its files' contents;
    ///   `.fileSystem` when the copy cannot be written.
    package static func make(of storeFolder: String, at revision: String, keep: Bool) throws(FolioError)
        -> RevisionCopy
    {
        let (repository, commits) = try StoreRepository.resolving([revision], inStoreAt: storeFolder)
        let commit = commits[0]
        guard let tree = try repository.storeTree(at: commit) else {
            throw FolioError(
                .notFound,
                "the store's folder did not exist at \(revision) (commit \(commit.prefix(7)))",
                path: storeFolder, hint: "see the commits that changed it with `git log --oneline -- .`")
        }
        let store = try OpenFolder(root: storeFolder)
        if keep, let local = try? store.makeFolders(".folio"), local.whyNotWritable() == nil {
            let copies = KeptCopies(store: store, repository: repository, commit: commit)
            return try copies.copy(of: tree)
        }
        let scratch = try ScratchFolder(purpose: "revision")
        do {
            try FileSystem.makeFolders(atPath: scratch.path(of: "store"))
            let target = try OpenFolder(root: scratch.path(of: "store"))
            try write(try files(of: tree, in: repository, commit: commit), into: target, from: repository, commit)
        } catch {
            scratch.remove()
            throw error
        }
        return RevisionCopy(commit: commit, tree: tree, root: scratch.path(of: "store"), scratch: scratch, inUse: nil)
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
            let batch = files[start..<min(start + blobsPerBatch, files.count)]
            start = batch.endIndex
            let contents = try repository.blobs(Array(Set(batch.map(\.blob))))
            for file in batch {
                guard let bytes = contents[file.blob] else {
                    throw FolioError(
                        .notFound,
                        "the repository lacks the content of \(file.path) at commit \(commit.prefix(7)) (object \(file.blob.prefix(12))): a partial or damaged clone",
                        path: repository.folder,
                        hint: "fetch the missing objects (`git fetch`), or read another revision")
                }
                let parent = file.path.split(separator: "/").dropLast().joined(separator: "/")[...]
                if madeFolders.insert(parent).inserted { try target.makeFolders(String(parent)) }
                try target.createFile(file.path, bytes: bytes, sync: false)
            }
        }
    }
}

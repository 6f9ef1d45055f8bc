import Foundation
import Glibc

/// The store as a commit held it, copied out of git's objects into a folder of Folio's own,
/// so that the whole engine (queries and their indexes, relationships, `check`) reads it as
/// it reads the working tree.
///
/// Nothing in the repository changes: the copy is made with reading commands only
/// (`rev-parse`, `ls-tree`, `cat-file`), never a checkout. A copy is named for the git tree
/// of the store's folder at the commit, so any two commits where the store held the same
/// files share one. A kept copy lives in the store's `.folio/revisions/` (which git ignores,
/// as all of `.folio/`) for the next command that reads that tree; the newest
/// `keptCopies` are kept. A private copy is made in a scratch folder, for a reader that
/// changes it (an app migrating the past to its own schema in memory) or a store whose
/// `.folio/` cannot be written.
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
    ///   repository; `.notFound` when the revision names no commit, the commit holds no store
    ///   there, or the repository lacks one of its files' contents; `.fileSystem` when the
    ///   copy cannot be written.
    package static func make(of storeFolder: String, at revision: String, keep: Bool) throws(FolioError)
        -> RevisionCopy
    {
        let repository = try StoreRepository(storeFolder: storeFolder)
        let commit = try repository.commit(named: revision)
        guard let tree = try repository.storeTree(at: commit) else {
            throw FolioError(
                .notFound,
                "the store's folder did not exist at \(revision) (commit \(commit.prefix(7)))",
                path: storeFolder, hint: "see the commits that changed it with `git log --oneline -- .`")
        }
        let store = try OpenFolder(root: storeFolder)
        if keep, let kept = try keptCopy(of: tree, in: store, from: repository, commit: commit) {
            return kept
        }
        let scratch = try ScratchFolder(purpose: "revision")
        do {
            try fill(scratch.path(of: "store"), from: repository, tree: tree, commit: commit)
        } catch {
            scratch.remove()
            throw error
        }
        return RevisionCopy(commit: commit, tree: tree, root: scratch.path(of: "store"), scratch: scratch)
    }

    /// The kept copy of `tree`, made now unless an earlier command made it; nil when the
    /// store's `.folio/` cannot be written.
    private static func keptCopy(
        of tree: String, in store: OpenFolder, from repository: StoreRepository, commit: String
    ) throws(FolioError) -> RevisionCopy? {
        guard let local = try? store.makeFolders(".folio"), local.whyNotWritable() == nil else { return nil }
        let copies = try store.makeFolders(folder)
        let name = folder + "/" + tree
        if try store.status(of: name + "/" + StoreManifest.fileName) != nil {
            // Marked as used now, so that pruning keeps the copies read last.
            _ = try copies.withDescriptor { descriptor throws(FolioError) in
                utimensat(descriptor, tree, nil, AT_SYMLINK_NOFOLLOW)
            }
            return RevisionCopy(commit: commit, tree: tree, root: store.pathOf(name), scratch: nil)
        }
        // Made under a name of its own and renamed into place whole, so that a reader never
        // sees half a copy and two commands making the same one do not collide.
        let making = folder + "/.making-\(tree)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        do throws(FolioError) {
            try store.makeFolders(making)
            try fill(store.pathOf(making), from: repository, tree: tree, commit: commit)
            do throws(FolioError) {
                try store.rename(making, to: name)
            } catch {
                guard try store.status(of: name + "/" + StoreManifest.fileName) != nil else { throw error }
                try store.removeTree(making)  // another command made the same copy first
            }
        } catch {
            try? store.removeTree(making)
            throw error
        }
        try prune(copies, in: store, keeping: tree)
        return RevisionCopy(commit: commit, tree: tree, root: store.pathOf(name), scratch: nil)
    }

    /// The whole hash of the commit `revision` names in the repository holding `storeFolder`.
    package static func commit(of storeFolder: String, named revision: String) throws(FolioError) -> String {
        try StoreRepository(storeFolder: storeFolder).commit(named: revision)
    }

    /// Writes the store's files of `tree` into the new folder `root`.
    private static func fill(_ root: String, from repository: StoreRepository, tree: String, commit: String)
        throws(FolioError)
    {
        try FileSystem.makeFolders(atPath: root)
        let target = try OpenFolder(root: root)
        let files = try repository.files(inTree: tree).filter { file in
            (file.mode == "100644" || file.mode == "100755")
                && !file.path.split(separator: "/").contains { $0.hasPrefix(".") }
        }
        guard files.contains(where: { $0.path == StoreManifest.fileName }) else {
            throw FolioError(
                .notFound, "the folder held no \(StoreManifest.fileName) at commit \(commit.prefix(7)), so no store",
                path: repository.folder, hint: "read a later revision, where the store exists")
        }
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

    /// Removes the kept copies past the newest `keptCopies` (by when they were last used),
    /// and any a crashed command left half made an hour ago or more.
    private static func prune(_ copies: OpenFolder, in store: OpenFolder, keeping tree: String) throws(FolioError) {
        let now = Date().timeIntervalSince1970
        var used: [(name: String, time: Int)] = []
        for name in try copies.list() {
            guard let info = try copies.status(of: name), FileSystem.isDirectory(info) else { continue }
            if name.hasPrefix(".making-") {
                if Double(info.st_mtim.tv_sec) < now - 3600 { try store.removeTree(folder + "/" + name) }
            } else if name != tree {
                used.append((name, info.st_mtim.tv_sec))
            }
        }
        for stale in used.sorted(by: { $0.time > $1.time }).dropFirst(keptCopies - 1) {
            try store.removeTree(folder + "/" + stale.name)
        }
    }
}

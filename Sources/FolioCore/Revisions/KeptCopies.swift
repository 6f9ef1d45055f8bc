import Foundation
import Glibc

/// The copies of past revisions a store keeps in `.folio/revisions/`, one folder per tree
/// id: found and locked for reading, made by taking over the copy used last (or from
/// nothing), and pruned to the newest `RevisionCopy.keptCopies`.
///
/// Every change here is made under a name of its own (`.making-…`) and renamed into place
/// whole, so a reader never sees half a copy, and only under an exclusive `flock` on the
/// copy's folder that no reader holds (see `RevisionCopy.Reading`).
struct KeptCopies {
    /// The store's folder.
    let store: OpenFolder
    /// The commit whose tree is wanted, for messages.
    let commit: String

    /// The kept copy of `tree`, locked for reading: found, taken over from the copy used last, or made.
    func copy(of revision: RevisionTree) throws(FolioError) -> RevisionCopy {
        let tree = revision.tree
        let copies = try store.makeFolders(RevisionCopy.folder)
        // Another command may take the same copy between two steps; each round starts again.
        for _ in 0..<4 {
            var reading = try reading(tree, in: copies)
            if reading == nil { reading = try made(revision, in: copies) }
            if let reading {
                try prune(copies, keeping: tree)
                return RevisionCopy(
                    commit: commit, tree: tree, root: store.pathOf(RevisionCopy.folder + "/" + tree), scratch: nil,
                    inUse: reading, objects: revision)
            }
        }
        throw FolioError(
            .locked, "other commands kept changing the copies of past revisions while this one read",
            path: copies.path, hint: "run the command again")
    }

    /// A shared lock on the copy named `name`, or nil when there is none (any more).
    private func reading(_ name: String, in copies: OpenFolder) throws(FolioError) -> RevisionCopy.Reading? {
        guard try copies.status(of: name + "/" + StoreManifest.fileName) != nil,
            let descriptor = try opened(name, in: copies)
        else { return nil }
        flock(descriptor, LOCK_SH)  // waits while another command takes it over or prunes it
        guard try isStill(descriptor, at: name, in: copies) else {
            close(descriptor)
            return nil
        }
        markUsed(name, in: copies)
        return RevisionCopy.Reading(descriptor)
    }

    /// Makes the copy of `revision`: the copy used last that nobody reads, taken over with
    /// its cache files (which vouch for every file the two trees share), else a new one.
    /// Returns its lock, or nil when another command made the same copy first.
    private func made(_ revision: RevisionTree, in copies: OpenFolder) throws(FolioError) -> RevisionCopy.Reading? {
        let tree = revision.tree
        let making = ".making-\(tree)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor: Int32
        if let donor = try donor(in: copies) {
            descriptor = donor.descriptor
            do throws(FolioError) {
                try copies.rename(donor.name, to: making)
            } catch {
                close(descriptor)
                throw error
            }
        } else {
            try copies.makeFolders(making)
            guard let made = try opened(making, in: copies) else {
                throw .fileSystem(path: copies.pathOf(making), operation: "open", reason: "it is gone")
            }
            descriptor = made
        }
        do throws(FolioError) {
            guard let target = try copies.folder(at: making) else {
                throw .fileSystem(path: copies.pathOf(making), operation: "open", reason: "it is gone")
            }
            // A copy an earlier version of Folio made holds the documents' files: no longer read.
            for name in try target.list() where name != StoreManifest.fileName && !RevisionCopy.isHidden(name) {
                try target.removeTree(name)
            }
            try RevisionCopy.writeManifest(of: revision, into: target, commit: commit)
            try copies.rename(making, to: tree)
        } catch {
            close(descriptor)
            guard try copies.status(of: tree + "/" + StoreManifest.fileName) != nil else {
                try? copies.removeTree(making)
                throw error
            }
            try copies.removeTree(making)  // another command made the same copy first
            return nil
        }
        // Others may read it from now on; a take-over that slipped in between is seen by the check.
        flock(descriptor, LOCK_SH)
        guard try isStill(descriptor, at: tree, in: copies) else {
            close(descriptor)
            return nil
        }
        markUsed(tree, in: copies)
        return RevisionCopy.Reading(descriptor)
    }

    /// The copy used last that no command reads, locked exclusively, with its name (its tree id).
    private func donor(in copies: OpenFolder) throws(FolioError) -> (name: String, descriptor: Int32)? {
        for (name, _) in try kept(in: copies) {
            guard let descriptor = try opened(name, in: copies) else { continue }
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0, try isStill(descriptor, at: name, in: copies) {
                return (name, descriptor)
            }
            close(descriptor)
        }
        return nil
    }

    /// Removes the copies past the newest `keptCopies` that no command reads, and any a
    /// crashed command left half made a day ago or more.
    private func prune(_ copies: OpenFolder, keeping tree: String) throws(FolioError) {
        let dayAgo = Int(Date().timeIntervalSince1970) - 86_400
        for name in try copies.list() where name.hasPrefix(".making-") {
            if let info = try copies.status(of: name), info.st_mtim.tv_sec < dayAgo { try copies.removeTree(name) }
        }
        for (name, _) in try kept(in: copies).filter({ $0.name != tree }).dropFirst(RevisionCopy.keptCopies - 1) {
            guard let descriptor = try opened(name, in: copies) else { continue }
            defer { close(descriptor) }
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0, try isStill(descriptor, at: name, in: copies) {
                try copies.removeTree(name)
            }
        }
    }

    /// The kept copies' names, the one used last first.
    private func kept(in copies: OpenFolder) throws(FolioError) -> [(name: String, used: Int)] {
        var found: [(name: String, used: Int)] = []
        for name in try copies.list() where !name.hasPrefix(".") {
            guard let info = try copies.status(of: name), FileSystem.isDirectory(info) else { continue }
            found.append((name, info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec))
        }
        return found.sorted { $0.used > $1.used }
    }

    /// The folder `name` in `copies`, opened (never through a link), or nil when it is not there.
    private func opened(_ name: String, in copies: OpenFolder) throws(FolioError) -> Int32? {
        let descriptor = try copies.withDescriptor { parent throws(FolioError) in
            openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        }
        return descriptor >= 0 ? descriptor : nil
    }

    /// Whether the folder open as `descriptor` is still the one at `name`: not taken over as
    /// another copy or removed while this command waited for its lock.
    private func isStill(_ descriptor: Int32, at name: String, in copies: OpenFolder) throws(FolioError) -> Bool {
        var held = stat()
        guard fstat(descriptor, &held) == 0, let named = try copies.status(of: name),
            held.st_ino == named.st_ino, held.st_dev == named.st_dev
        else { return false }
        return try copies.status(of: name + "/" + StoreManifest.fileName) != nil
    }

    /// Sets the copy's time to now, so that pruning keeps the copies read last.
    private func markUsed(_ name: String, in copies: OpenFolder) {
        _ = try? copies.withDescriptor { parent throws(FolioError) in
            utimensat(parent, name, nil, AT_SYMLINK_NOFOLLOW)
        }
    }
}

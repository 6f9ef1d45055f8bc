import FolioJSON
import Foundation

/// Reads the two versions of one record for `StoreDiff`: the older from git's blobs, the
/// newer from git's blobs or from the working tree, and says why a version did not read.
/// A record's `.externalStorage` files are compared by git's id for their bytes, which the
/// working tree's are hashed for.
struct VersionReading {
    /// The blobs of the changed documents, by id.
    var blobs: [String: [UInt8]]
    /// The size of each changed `.externalStorage` file's blob, by id.
    var sizes: [String: Int]
    /// The store's folder when the newer state is the working tree.
    var workingTree: OpenFolder?

    /// One version of the record: its file's path, bytes (nil where they could not be had)
    /// and content (nil where they do not parse as an object).
    private struct Version {
        var path: String
        var bytes: [UInt8]?
        var content: JSONObject?
    }

    /// The record's difference from its changed files (sorted by path: its documents, and
    /// its `.externalStorage` files), or nil when the two versions hold the same. A record
    /// with no document in either state is none.
    func difference(id: UUID, files all: [(path: DocumentPath, file: ChangedFiles.File)]) -> RecordDifference? {
        let files = all.filter { $0.path.blobProperty == nil }
        guard !files.isEmpty else { return nil }
        var unreadable: [String] = []
        let blobChanges = blobs(of: all.filter { $0.path.blobProperty != nil }, &unreadable)
        let before = files.first { $0.file.before != nil }.map { path, file in
            version(path.relativePath, blob: file.before, state: "in the older state", &unreadable)
        }
        var after: Version?
        if workingTree != nil {
            after = files.lazy.compactMap { workingTreeVersion($0.path.relativePath, &unreadable) }.first
        } else if let changed = files.first(where: { $0.file.after != nil }) {
            after = version(
                changed.path.relativePath, blob: changed.file.after, state: "in the newer state", &unreadable)
        }
        if let before, let after, before.path == after.path, let bytes = before.bytes, bytes == after.bytes,
            blobChanges.isEmpty, unreadable.isEmpty
        {
            return nil
        }
        return RecordDifference.between(
            id: id, folder: files[0].path.entity, before: before.map { ($0.path, $0.content) },
            after: after.map { ($0.path, $0.content) }, blobs: blobChanges, unreadable: unreadable)
    }

    /// The `.externalStorage` files that differ among a record's changed ones.
    private func blobs(of files: [(path: DocumentPath, file: ChangedFiles.File)], _ unreadable: inout [String])
        -> [PropertyChange]
    {
        var blobs: [(property: String, old: StoredBlob?, new: StoredBlob?)] = []
        for (path, file) in files {
            guard let property = path.blobProperty else { continue }
            let new: StoredBlob?
            if workingTree == nil {
                new = StoredBlob(file.after, sizes: sizes)
            } else {
                do {
                    new = try workingTreeBytes(path.relativePath).map { bytes in
                        StoredBlob(object: GitBlobID(content: bytes).hex, size: bytes.count)
                    }
                } catch {
                    // Said, and not compared: a file that cannot be read is not a file removed.
                    unreadable.append("\(path.relativePath) in the working tree cannot be read: \(error.reason)")
                    continue
                }
            }
            blobs.append((property, StoredBlob(file.before, sizes: sizes), new))
        }
        return PropertyChange.differences(ofBlobs: blobs)
    }

    /// A version held in git.
    private func version(_ path: String, blob: String?, state: String, _ unreadable: inout [String]) -> Version {
        guard let blob, let bytes = blobs[blob] else {
            unreadable.append("\(path) \(state) (blob \(blob?.prefix(7) ?? "?")) is missing from the repository")
            return Version(path: path)
        }
        return Version(path: path, bytes: bytes, content: Self.content(bytes, path, state, &unreadable))
    }

    /// The version in the working tree at `path`, nil where no file is there. A file that is
    /// a symbolic link, or under one, is not followed: it is unreadable.
    private func workingTreeVersion(_ path: String, _ unreadable: inout [String]) -> Version? {
        do {
            guard let bytes = try workingTreeBytes(path) else { return nil }
            return Version(
                path: path, bytes: bytes, content: Self.content(bytes, path, "in the working tree", &unreadable))
        } catch {
            unreadable.append("\(path) in the working tree cannot be read: \(error.reason)")
            return Version(path: path)
        }
    }

    /// The bytes of the working tree's file at `path`, nil where no file is there (or no
    /// working tree is read). A file that is a symbolic link, or under one, is not followed:
    /// it throws.
    private func workingTreeBytes(_ path: String) throws(FolioError) -> [UInt8]? {
        guard let workingTree, try workingTree.status(of: path) != nil else { return nil }
        return try workingTree.readFile(path, limit: JSONReader.absoluteMaximumSize).bytes
    }

    /// A version's bytes as a record, or nil with the reason in `unreadable`.
    private static func content(_ bytes: [UInt8], _ path: String, _ state: String, _ unreadable: inout [String])
        -> JSONObject?
    {
        do {
            guard let object = try JSONReader().read(bytes, file: path).objectValue else {
                unreadable.append("\(path) \(state) is not a JSON object")
                return nil
            }
            return object
        } catch {
            unreadable.append("\(path) \(state) does not parse: \(error.message)")
            return nil
        }
    }
}

import FolioJSON
import Foundation

/// A record as one commit of the store's repository holds it: the file named for its
/// identity in that commit's tree, read from git's objects (no checkout, nothing written).
///
/// The record is found as `RecordHistory` finds it, by the UUID its file is named for, in
/// whatever day folder the commit has it, so a record purged since, or moved since, is found.
///
/// ```swift
/// let monday = try RecordVersion(of: id, inStoreAt: "/home/me/Timers", at: "main@{2026-11-23}")
/// print(monday.path, monday.content["name"] ?? "none")
/// ```
public struct RecordVersion: Sendable {
    /// The record's identity.
    public var id: UUID
    /// The commit read (whole hash).
    public var commit: String
    /// The revision as it was given (`HEAD~1`, a branch, a hash), for messages.
    public var revision: String
    /// The record's file in that commit, relative to the store.
    public var path: DocumentPath
    /// The record's members as that commit holds them.
    public var content: JSONObject
    /// The record's `.externalStorage` files in that commit (beside its document), by
    /// property name.
    public var blobs: [String: StoredBlob]
    /// The repository the record was read from, which holds its files' bytes.
    private let repository: StoreRepository

    /// The record with identity `id` as revision `revision` (a branch, a tag, a commit or
    /// the start of its hash, `HEAD~2`) holds it, in the store at `folder` (which may be a
    /// folder inside a work tree).
    ///
    /// Throws `.invalidStore` for a folder in no git repository, `.invalidInput` for text
    /// that is no revision (one starting with `-` is refused before git runs), `.notFound`
    /// for a revision that names no commit, a record no commit up to it has, or a record
    /// absent at it, and `.invalidDocument` for a file there that does not parse as a record.
    public init(of id: UUID, inStoreAt folder: String, at revision: String) throws(FolioError) {
        let (repository, commits) = try StoreRepository.resolving([revision], inStoreAt: folder)
        let commit = commits[0]
        (self.id, self.commit, self.revision, self.repository) = (id, commit, revision, repository)
        let at = "\(revision) (commit \(commit.prefix(7)))"
        let output = try repository.checked([
            "log", "-z", "--raw", "--no-abbrev", "--no-renames", "--root", "--diff-merges=first-parent",
            "--no-color", CommitListing.format, commit, "--", ":(glob)**/\(id.uuidString).json",
        ])
        // Every path the record's file had up to the commit, then the one the commit's tree holds.
        var paths = Set<DocumentPath>()
        for file in try CommitListing(output).commits.flatMap(\.files) where file.path.hasPrefix(repository.prefix) {
            guard let path = DocumentPath(relativePath: String(file.path.dropFirst(repository.prefix.count))),
                path.id == id, path.blobProperty == nil
            else { continue }
            paths.insert(path)
        }
        guard !paths.isEmpty else {
            throw FolioError(
                .notFound, "no commit up to \(at) has a record with the id \(id.uuidString)", path: folder,
                hint: "check the id, or give a later revision; `git log --oneline` lists the commits")
        }
        let candidates = paths.sorted()
        let lines = candidates.map { "\(commit):\(repository.prefix)\($0.relativePath)\n" }.joined()
        let listed = try repository.checked(["cat-file", "--batch-check"], input: Array(lines.utf8))
        let found = zip(candidates, String(decoding: listed, as: UTF8.self).split(separator: "\n")).first { _, line in
            line.split(separator: " ").dropFirst().first == "blob"
        }
        guard let (path, line) = found, let blob = line.split(separator: " ").first.map(String.init) else {
            throw FolioError(
                .notFound,
                "the record \(id.uuidString) is not in the store at \(at): its file was removed before then, or made after",
                path: folder,
                hint: "`folio log \(id.uuidString)` lists the commits that changed it; give one that has it")
        }
        self.path = path
        guard let bytes = try repository.blobs([blob])[blob] else {
            throw FolioError(
                .notFound, "\(path.relativePath) at \(at) is missing from the repository (blob \(blob.prefix(7)))",
                path: folder, hint: "fetch the missing objects (`git fetch`), or give another revision")
        }
        let hint = "restore it from another revision: `folio log \(id.uuidString)` lists them"
        let value: JSONValue
        do { value = try JSONReader().read(bytes, file: path.relativePath) } catch {
            throw FolioError(
                .invalidDocument, "\(path.relativePath) at \(at) does not parse: \(error.message)", path: folder,
                hint: hint)
        }
        guard let object = value.objectValue else {
            throw FolioError(
                .invalidDocument, "\(path.relativePath) at \(at) is not a JSON object, so it holds no record",
                path: folder, hint: hint)
        }
        content = object
        blobs = try Self.blobs(beside: path, at: commit, in: repository)
    }

    /// The bytes of some of the record's `.externalStorage` files, by git's id; a file whose
    /// object the repository lacks is left out.
    func bytes(of blobs: [StoredBlob]) throws(FolioError) -> [String: [UInt8]] {
        try repository.blobs(blobs.map(\.object))
    }

    /// The `.externalStorage` files beside the document at `path` in `commit`'s tree: the
    /// files (not links) of its folder named `<UUID>.<property>.bin` for its identity.
    private static func blobs(beside path: DocumentPath, at commit: String, in repository: StoreRepository)
        throws(FolioError) -> [String: StoredBlob]
    {
        var found: [String: String] = [:]
        for file in try repository.files(inTree: "\(commit):\(repository.prefix)\(path.folder)")
        where ["100644", "100755"].contains(file.mode) {
            guard let blob = DocumentPath(relativePath: path.folder + "/" + file.path), blob.id == path.id,
                let property = blob.blobProperty
            else { continue }
            found[property] = file.blob
        }
        let names = found.sorted { $0.key < $1.key }
        let sizes = try repository.blobSizes(names.map(\.value))
        return Dictionary(
            uniqueKeysWithValues: zip(names, sizes).map { name, size in
                (name.key, size ?? StoredBlob(object: name.value, size: nil))
            })
    }
}

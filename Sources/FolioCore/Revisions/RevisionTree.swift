/// A past revision's store as git's objects hold it: its files listed with `git ls-tree` and
/// read with `git cat-file`, never written out.
///
/// A store read at a revision takes its documents from here in place of its folder's files
/// (see `DocumentStore.open(_:)`), so the first read of a revision costs what reading its
/// blobs costs, not writing them all and reading them back. A file of the tree is stamped
/// with its object's id (`stamp(ofObject:)`): the id changes exactly when the bytes do, so
/// a cache file written for one revision vouches for every file another revision shares
/// with it, and only what differs is read.
package struct RevisionTree: Sendable {
    /// The repository holding the objects.
    let repository: StoreRepository
    /// The id of the store folder's tree.
    package let tree: String
    /// The tree's entity folders: the names at its top that are identifiers and folders.
    let entityFolders: [String]
    /// The id of the tree's `folio.json`.
    let manifest: String

    /// How many objects one run of `git cat-file --batch` reads: a few megabytes of
    /// documents, few enough runs that starting git costs little beside the reading.
    static let objectsPerRead = 4096

    /// The tree `tree` of `repository`, its top level listed; a tree without a `folio.json`
    /// file is no store.
    ///
    /// - Throws: `.notFound` (through `noStore`) when the tree holds no `folio.json`;
    ///   `.externalProgram` when git cannot list it.
    init(_ tree: String, in repository: StoreRepository, noStore: () -> FolioError) throws(FolioError) {
        (self.repository, self.tree) = (repository, tree)
        var folders: [String] = []
        var manifest: String?
        let top = try repository.checked(["ls-tree", "-z", "--full-tree", "--end-of-options", tree])
        Self.eachEntry(of: top) { mode, id, path in
            let name = String(decoding: path, as: UTF8.self)
            if mode.elementsEqual("040000".utf8), DocumentPath.isIdentifier(name) { folders.append(name) }
            if name == StoreManifest.fileName, Self.isFile(mode) { manifest = String(decoding: id, as: UTF8.self) }
        }
        guard let manifest else { throw noStore() }
        (self.entityFolders, self.manifest) = (folders, manifest)
    }

    /// The documents and blobs of `folders` (`nil`: every folder), as a walk of the tree's
    /// files would list them, each stamped with its object's id.
    ///
    /// - Throws: `.externalProgram` when git cannot list the tree.
    func listing(_ folders: Set<String>?, expectedDocuments: Int, keysOnly: Bool) throws(FolioError) -> TreeListing {
        // Entity folders are identifiers, so no name given here is read as an option or a pattern.
        let named = folders.map { $0.filter(DocumentPath.isIdentifier).sorted() } ?? []
        let output =
            folders != nil && named.isEmpty
            ? [] : try repository.checked(["ls-tree", "-r", "-z", "--full-tree", "--end-of-options", tree] + named)
        return TreeListing(folders: folders, expectedDocuments: expectedDocuments, keysOnly: keysOnly) { list in
            Self.eachEntry(of: output) { mode, id, path in list(path, Self.kind(of: mode), Self.stamp(ofObject: id)) }
        }
    }

    /// The bytes of the files stamped `stamps`, read from git's objects in one run, by
    /// stamp; a file whose object the repository lacks is left out.
    ///
    /// - Throws: `.externalProgram` when git cannot run.
    func contents(of stamps: [FileStamp]) throws(FolioError) -> [FileStamp: [UInt8]] {
        var input: [UInt8] = []
        input.reserveCapacity(stamps.count * (tree.utf8.count + 1))
        for stamp in Set(stamps) {
            appendObjectID(of: stamp, to: &input)
            input.append(0x0A)
        }
        var found: [FileStamp: [UInt8]] = [:]
        found.reserveCapacity(stamps.count)
        try repository.eachBlob(asked: input) { id, bytes in found[Self.stamp(ofObject: id)] = Array(bytes) }
        return found
    }

    /// The bytes of the files at `paths` (paths the tree's listing gave), by path, in two runs
    /// of git: `cat-file --batch-check` of `<tree>:<path>` for their ids, `cat-file --batch`
    /// for their bytes. A file the tree lacks, or git cannot read, is left out.
    func bytes(at paths: [String]) -> [String: [UInt8]] {
        // Each name starts with the tree's id, and goes to git on its input: never an option.
        guard !paths.isEmpty, let found = try? repository.blobSizes(paths.map { tree + ":" + $0 }),
            let contents = try? repository.blobs(found.compactMap { $0?.object })
        else { return [:] }
        var bytes: [String: [UInt8]] = [:]
        for (path, blob) in zip(paths, found) { bytes[path] = blob.flatMap { contents[$0.object] } }
        return bytes
    }

    /// The bytes of the files the layout lists, documents and blobs, as git records their
    /// sizes: what a walk's stamps would sum to.
    ///
    /// - Throws: `.externalProgram` when git cannot list the tree.
    func fileBytes() throws(FolioError) -> Int64 {
        let output = try repository.checked(["ls-tree", "-r", "-l", "-z", "--full-tree", "--end-of-options", tree])
        var sizes: [FileStamp: Int64] = [:]
        let listing = TreeListing(folders: nil, expectedDocuments: 0, keysOnly: false) { list in
            Self.eachEntry(of: output) { mode, field, path in
                // With `-l`, the id is followed by spaces and the size.
                let parts = field.split(separator: UInt8(ascii: " "))
                guard let id = parts.first,
                    let size = parts.last.flatMap({ Int64(String(decoding: $0, as: UTF8.self)) })
                else { return }
                let stamp = Self.stamp(ofObject: id)
                sizes[stamp] = size
                list(path, Self.kind(of: mode), stamp)
            }
        }
        return (listing.documents + listing.blobs).reduce(0) { $0 + (sizes[$1.stamp] ?? 0) }
    }

    /// The id of the object a file stamped `stamp` holds, as git prints it.
    func objectID(of stamp: FileStamp) -> String {
        var text: [UInt8] = []
        appendObjectID(of: stamp, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// Appends the hex digits of the id of the object a file stamped `stamp` holds.
    private func appendObjectID(of stamp: FileStamp, to text: inout [UInt8]) {
        var digits = tree.utf8.count
        for word in [UInt64(bitPattern: stamp.modified), stamp.inode, stamp.device, UInt64(bitPattern: stamp.size)] {
            for shift in stride(from: 60, through: 0, by: -4) where digits > 0 {
                let value = UInt8((word >> UInt64(shift)) & 15)
                text.append(value < 10 ? 0x30 + value : 0x61 + value - 10)
                digits -= 1
            }
        }
    }

    /// The stamp of a file whose object has the id `id` (40 or 64 hex digits): the id's bytes
    /// in the modification time, inode, device and size, and a change time of 1 ns since 1970,
    /// which no clock gives a file just written and so is never taken for a recent change.
    static func stamp(ofObject id: some Collection<UInt8>) -> FileStamp {
        var words: [UInt64] = [0, 0, 0, 0]
        for (index, digit) in id.prefix(64).enumerated() {
            let value: UInt8
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = digit - UInt8(ascii: "a") + 10
            default: value = 0
            }
            words[index / 16] |= UInt64(value) << UInt64(60 - (index % 16) * 4)
        }
        return FileStamp(
            size: Int64(bitPattern: words[3]), modified: Int64(bitPattern: words[0]), changed: 1, inode: words[1],
            device: words[2])
    }

    /// What a tree entry's mode makes of it, in a walk's terms.
    private static func kind(of mode: some Collection<UInt8>) -> TreeListing.Kind {
        if isFile(mode) { return .file }
        if mode.elementsEqual("120000".utf8) { return .link }
        return mode.elementsEqual("040000".utf8) ? .folder : .other
    }

    /// Whether a tree entry's mode is a regular file's.
    private static func isFile(_ mode: some Collection<UInt8>) -> Bool {
        mode.elementsEqual("100644".utf8) || mode.elementsEqual("100755".utf8)
    }

    /// Hands `body` each entry of `git ls-tree -z` output: its mode, its id (with `-l`, the id,
    /// spaces and the size) and its path, as bytes.
    private static func eachEntry(
        of output: [UInt8], _ body: (ArraySlice<UInt8>, ArraySlice<UInt8>, ArraySlice<UInt8>) -> Void
    ) {
        var start = 0
        while start < output.count {
            let end = output[start...].firstIndex(of: 0) ?? output.count
            defer { start = end + 1 }
            // "<mode> SP <type> SP <id> TAB <path>"
            let entry = output[start..<end]
            guard let tab = entry.firstIndex(of: 0x09), let space = entry[..<tab].firstIndex(of: 0x20),
                let second = entry[(space + 1)..<tab].firstIndex(of: 0x20)
            else { continue }
            body(entry[..<space], entry[(second + 1)..<tab], entry[(tab + 1)...])
        }
    }
}

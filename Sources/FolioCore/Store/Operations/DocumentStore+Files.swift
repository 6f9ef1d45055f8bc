// DocumentStore: where the documents' files come from: the store's folder, or a past revision's git tree.

import FolioJSON

extension DocumentStore {
    /// The entity folders at the top of the store: its folder's, or the revision tree's.
    ///
    /// - Throws: `.fileSystem` when the folder cannot be listed.
    func entityFolderNames() throws(FolioError) -> [String] {
        if let pastTree { return pastTree.entityFolders }
        return try folder.list().filter(DocumentPath.isIdentifier)
    }

    /// The documents and blobs of `folders` (`nil`: every folder), each with its stamp: a
    /// `stat`-only walk of the folder, or the revision tree's listing.
    ///
    /// - Throws: what `TreeListing.init(root:…)` or `RevisionTree.listing` throws.
    func listing(_ folders: Set<String>?, expectedDocuments: Int = 0, keysOnly: Bool = false) throws(FolioError)
        -> TreeListing
    {
        if let pastTree {
            return try pastTree.listing(folders, expectedDocuments: expectedDocuments, keysOnly: keysOnly)
        }
        return try TreeListing(root: folder, folders: folders, expectedDocuments: expectedDocuments, keysOnly: keysOnly)
    }

    /// The bytes of a document's or blob's file, listed with `stamp`, and the stamp they were
    /// read at: from the folder, or for a revision from git's objects (`fetched` holds the
    /// ones already read, by stamp).
    ///
    /// - Throws: `.fileSystem`, `.unsafePath` or `.unreadableJSON` (larger than `limit`) as
    ///   `OpenFolder.readFile` throws them; `.notFound` when the repository lacks the object.
    func fileContent(
        _ relative: String, stamp: FileStamp, limit: Int, fetched: [FileStamp: [UInt8]]? = nil
    ) throws(FolioError) -> (bytes: [UInt8], stamp: FileStamp) {
        guard let pastTree else { return try folder.readFile(relative, limit: limit) }
        var read = fetched
        if read == nil { read = try pastTree.contents(of: [stamp]) }
        guard let bytes = read?[stamp] else {
            throw RevisionCopy.missingObject(relative, pastTree.objectID(of: stamp), in: pastTree.repository, nil)
        }
        guard bytes.count <= limit else {
            throw .unreadableJSON(JSONError(.tooLarge(size: bytes.count, limit: limit), file: relative))
        }
        return (bytes, stamp)
    }

    /// Document files' bytes by their paths relative to the store, for findings' line
    /// numbers; a file that cannot be read is left out.
    func documentTexts(at paths: [String]) -> [String: [UInt8]] {
        if let pastTree { return pastTree.bytes(at: paths) }
        var texts: [String: [UInt8]] = [:]
        for path in paths {
            texts[path] = try? folder.readFile(path, limit: JSONReader.defaultMaximumSize).bytes
        }
        return texts
    }
}

import FolioJSON

extension DocumentStore {
    /// A stored document's revision: the git blob id of its file, as `git hash-object`
    /// prints it (40 hex digits), which changes whenever the file's bytes do.
    ///
    /// It is the token of a compare-and-set: read a document and its revision, work out the
    /// change, then write it only if the revision is still the file's (the tool's
    /// `folio set --if-unchanged`). Being git's own id, it also finds the document's
    /// history: `git log --find-object=<revision>`.
    ///
    /// Throws `.conflict` when the file no longer holds the version `document` was read at.
    ///
    /// - Throws: `.conflict`; `.fileSystem` or `.unsafePath` when the file cannot be read, and
    ///   `.unreadableJSON` when it is larger than Folio reads.
    public func revision(of document: StoredDocument) throws(FolioError) -> String {
        // A past revision's files never change, and the stamp a document was read at names its object.
        if let pastTree { return pastTree.objectID(of: document.version.stamp) }
        let relative = document.path.relativePath
        let bytes = try folder.readFile(relative, limit: JSONReader.absoluteMaximumSize).bytes
        guard ContentHash.of(bytes) == document.version.contentHash else {
            throw .conflict(
                path: relative,
                reason: "changed on disk since it was read (edited by hand, by git, or by another process)")
        }
        return GitBlobID(content: bytes).hex
    }
}

import FolioJSON

extension DocumentStore {
    /// The bytes of a file at the top of the store's folder that is not Folio's own (the
    /// store's `.gitattributes`), or `nil` when there is none.
    ///
    /// Reached as every file of a store is: a link there is refused (`.unsafePath`), never
    /// followed. A file that is there but cannot be read throws, so a caller never takes
    /// it for an empty one and writes over it.
    package func readOwnFile(_ name: String) throws(FolioError) -> [UInt8]? {
        guard try folder.status(of: name) != nil else { return nil }
        return try folder.readFile(name, limit: JSONReader.absoluteMaximumSize).bytes
    }

    /// Replaces a file at the top of the store's folder with these bytes, or removes it
    /// when `bytes` is `nil`; the new content is written beside it and renamed into place,
    /// so the file is always whole, and a link in its place is replaced, not written through.
    package func writeOwnFile(_ name: String, bytes: [UInt8]?) throws(FolioError) {
        guard let bytes else {
            try folder.removeFile(name)
            return
        }
        let staged = "\(name).folio-new"
        try folder.removeFile(staged)
        try folder.createFile(staged, bytes: bytes, sync: durability != .none)
        try folder.rename(staged, to: name)
    }
}

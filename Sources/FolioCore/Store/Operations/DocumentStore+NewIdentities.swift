import Foundation

extension DocumentStore {
    /// The folders whose documents a commit of `changes` leaves unloaded, checking the new
    /// documents written there against a walk instead (see `newIdentitiesAreFree`): when the
    /// store serves one command (`servesOneCommand`), the folders not loaded yet that the
    /// changes only add new documents to. A new document needs nothing of its folder but
    /// that its identity is not taken; one that replaces or deletes a stored document needs
    /// that document's content and blobs, which only a load gives.
    func foldersCheckedByWalk(_ changes: [DocumentChange]) -> Set<String> {
        guard servesOneCommand else { return [] }
        var adding = Set<String>()
        var replacing = Set<String>()
        for change in changes {
            if case .put(let document, nil) = change {
                adding.insert(document.entity)
            } else {
                replacing.insert(change.entity)
            }
        }
        return memory.unloaded(among: adding.subtracting(replacing)) ?? []
    }

    /// Whether no file of `folders` holds the identity of a new document `changes` put
    /// there, from a walk of each folder; throws `.conflict`, as a loaded folder's commit
    /// does, naming the file that holds one. `false` when a walk found something only a load
    /// reports (a misplaced file, a symbolic link): the caller loads the folders and commits
    /// as usual. Call holding the write lock, so that no other writer adds a file between
    /// the walk and the commit.
    func newIdentitiesAreFree(_ changes: [DocumentChange], in folders: Set<String>) throws(FolioError) -> Bool {
        for name in folders.sorted() {
            var added = Set<UInt128>()
            for case .put(let document, nil) in changes where document.entity == name {
                added.insert(DocumentPath.OrderKey.identity(of: document.id))
            }
            let listing = try TreeListing(root: folder, folders: [name], keysOnly: true)
            guard listing.issues.isEmpty else { return false }
            for entry in listing.keyedDocuments where added.contains(entry.key.identity) {
                guard let (day, id) = entry.key.parts else { return false }
                let existing = try DocumentPath(entity: name, day: day, id: id)
                throw .conflict(path: existing.relativePath, reason: Self.identityTaken)
            }
        }
        return true
    }

    /// Why a new document cannot be written where its identity is already stored.
    static let identityTaken =
        "a document with this identity already exists; read it and pass its version to overwrite it"
}

import FolioCore

/// A document found by the start of its id, as git finds a commit by an abbreviated hash:
/// the one document of the store whose id starts so, or an error that says there is none,
/// or lists those that do when there are several.
enum IDLookup {
    /// How many documents an error lists when a prefix matches several.
    static let candidatesListed = 10

    /// The document whose id starts with `prefix`, soft-deleted or not. `orEntity`: the
    /// command would have taken an entity's name there too, which an error then says it is not.
    static func document(startingWith prefix: IDPrefix, orEntity: Bool = false, in store: DocumentStore)
        throws(FolioError) -> StoredDocument
    {
        let matches = DocumentIDs.documents(startingWith: prefix, in: store)
        guard let first = matches.first else {
            let entity =
                orEntity && DocumentPath.isIdentifier(prefix.description) ? ", nor is there an entity \(prefix)" : ""
            throw FolioError(
                .notFound, "no document in the store at \(store.root) has an id that starts with \(prefix)\(entity)",
                hint: "copy the id from a table of `folio query`, or give the whole UUID or the document's path")
        }
        // One id in two folders is still one id: the first folder's document, as a whole UUID finds it.
        guard matches.allSatisfy({ $0.key == first.key }) else {
            let listed = matches.prefix(candidatesListed).map { "  " + $0.path.relativePath }
            let more = matches.count > candidatesListed ? ["  and \(matches.count - candidatesListed) more"] : []
            let digits = zip(matches, matches.dropFirst()).map { $0.key.sharedDigits(with: $1.key) }.max() ?? 0
            throw FolioError(
                .invalidInput,
                (["the id \(prefix) is ambiguous: \(matches.count) documents' ids start with it"] + listed + more)
                    .joined(separator: "\n"),
                hint: "give more of the id (its first \(digits + 1) digits tell these apart), or the whole UUID")
        }
        guard let document = store.document(entity: first.path.entity, id: first.path.id) else {
            // A file the store could not read says why, with its line and column.
            if let issue = store.issues.first(where: { $0.path == first.path.relativePath }) { throw issue.error }
            throw FolioError(.notFound, "the store at \(store.root) holds no document at \(first.path.relativePath)")
        }
        return document
    }
}

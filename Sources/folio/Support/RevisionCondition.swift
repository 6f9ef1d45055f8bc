import ArgumentParser
import FolioCore

/// `--if-unchanged <revision>`: the compare-and-set of commands that change one document.
///
/// A script reads a document's revision (`folio get --revision`, the git blob id of its
/// file), works out its change, and passes the revision back: the change is made only if
/// the file is still that revision, else the command exits 75 and the script reads again.
/// Without it, two scripts that read, compute and write lose each other's changes.
struct RevisionCondition: ParsableArguments {
    @Option(
        name: .customLong("if-unchanged"),
        help: ArgumentHelp(
            "Change the document only if its revision (as `folio get --revision` prints it, or at least its first 7 digits) is still this one; else exit 75.",
            valueName: "revision"))
    var revision: String?

    /// Throws `.conflict` when a revision was given and the document's is not it.
    func check(_ document: StoredDocument, in store: DocumentStore) throws(FolioError) {
        guard let revision else { return }
        let given = revision.lowercased()
        guard (7...40).contains(given.count), given.allSatisfy(\.isHexDigit) else {
            throw .invalidInput(
                "--if-unchanged takes a revision as `folio get --revision` prints it (7 to 40 hex digits), not \"\(revision)\""
            )
        }
        let current = try store.revision(of: document)
        guard current.hasPrefix(given) else {
            throw .conflict(
                path: document.path.relativePath,
                reason: "is no longer revision \(revision) (it is now \(current)); read it again and redo the change")
        }
    }
}

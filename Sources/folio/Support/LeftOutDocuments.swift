import ArgumentParser
import FolioCore

/// The documents of an entity the store could not read, which an answer about the entity
/// (a query, a count, an aggregate, an export) had to leave out.
///
/// The answer is still printed, but never taken for whole: each file is named on standard
/// error with why, and the command exits 1, as `check` does when it finds a problem.
enum LeftOutDocuments {
    /// Names each unreadable document of `entity` on standard error, then exits 1 if there was any.
    static func report(_ entity: String, in store: DocumentStore) throws {
        let unreadable = store.unreadableDocuments(of: entity)
        guard !unreadable.isEmpty else { return }
        for issue in unreadable {
            let why = issue.error.description.split(separator: "\n").first.map(String.init) ?? issue.path
            Terminal.printError(
                "\(Terminal.colour("warning:", 33, onError: true)) left out of the answer, since it cannot be read: \(why)"
            )
        }
        Terminal.printError(
            "hint: `folio check` lists every problem; fix the \(unreadable.count == 1 ? "file" : "files") by hand, or restore from git"
        )
        throw ExitCode(Failure.Code.found.rawValue)
    }
}

import FolioCore

/// What `folio log`, `folio blame` and `folio diff` say on standard error about a past that
/// git could not give whole: versions that do not parse, a shallow clone's end.
enum RecordHistoryWarnings {
    /// Prints a warning for each finding of `history`.
    static func print(for history: RecordHistory) {
        for change in history.changes {
            if let unreadable = change.unreadable { warn("\(unreadable); its properties are not compared there") }
        }
        if let boundary = history.endsAtShallowBoundary {
            warn(
                "this clone's history ends at commit \(boundary.prefix(7)) (a shallow clone): the record may be older than it shows; `git fetch --unshallow` fetches the rest"
            )
        }
    }

    /// Prints a warning for each record of `diff` whose versions could not both be read.
    static func print(for diff: StoreDiff) {
        for record in diff.records {
            if let unreadable = record.unreadable { warn("\(unreadable); its properties are not compared") }
        }
    }

    private static func warn(_ text: String) {
        Terminal.printError(Terminal.colour("warning:", 33, onError: true) + " \(text)")
    }
}

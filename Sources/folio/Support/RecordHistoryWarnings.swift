import FolioCore

/// What `folio log` and `folio blame` say on standard error about a record's past that git
/// could not give whole: versions that do not parse, a shallow clone's end.
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

    private static func warn(_ text: String) {
        Terminal.printError(Terminal.colour("warning:", 33, onError: true) + " \(text)")
    }
}

import FolioCore

/// A note on a terminal when a query read every document of a large entity because no
/// index narrowed its filter: what the answer cost, and how to make the next one cheap.
///
/// Only on a terminal: a script gets the same answer without a word on standard error.
enum ScanNote {
    /// The documents an entity holds before a scan of it is worth a note: a folder this
    /// large is one an app answers from its cache file too (`StoreReads.cacheAnswerMinimum`).
    static let threshold = 5_000

    /// Writes the note, when `explanation` is a streamed scan of at least `threshold` documents.
    static func report(_ explanation: QueryExplanation) {
        guard Terminal.errorIsTerminal, explanation.streamed, explanation.examined >= threshold else { return }
        let read = "all \(counted(explanation.examined, "\(explanation.entity) document")) were read"
        let note = Terminal.colour("note:", 36, onError: true)
        if case .index(let properties, _, _) = explanation.access {
            Terminal.printError(
                "\(note) the index on \(properties.joined(separator: ", ")) is declared but not built yet, so \(read); `folio reindex` builds it"
            )
        } else {
            Terminal.printError(
                "\(note) no index narrows this filter, so \(read); declare one on the property it compares (\"indices\": [[\"name\"]] in the entity in folio.json, or #Index in the model), then run `folio reindex`"
            )
        }
    }
}

import FolioCore

/// How the writing commands refuse a write that would give a document a unique value
/// another document holds (see `UniqueWrites`): each clash names the document written, the
/// values, and the other document by identity and file, or by its line in an import.
enum UniqueRefusal {
    /// Commits a transaction's changes as the tool's author, or throws `.constraint` for the
    /// clashes they would make and writes nothing (see `DocumentStore.commit(_:author:refusingClashes:)`);
    /// `subject` names the document written (by default its entity and identity).
    @discardableResult
    static func commit(
        _ changes: [DocumentChange], in store: DocumentStore, hint: String,
        subject: (UniqueClash) -> String = { "\($0.entity) \($0.id)" }
    ) throws(FolioError) -> CommitSummary {
        try store.commit(changes, author: FolioCommand.author) { clashes in
            error(clashes, hint: hint, subject: subject)
        }
    }

    /// The error for clashes: one sentence for one, a line each for more. `subject` names
    /// the document written (`Tag <UUID>`, `tags.ndjson:3`); the last is `nothing` was written.
    static func error(
        _ clashes: [UniqueClash], hint: String, file: String? = nil, nothing: String = "nothing was written",
        subject: (UniqueClash) -> String
    ) -> FolioError {
        func holder(_ clash: UniqueClash) -> String {
            if let row = clash.holderRow { return "\(file.map { "\($0):" } ?? "line ")\(row)" }
            let named = "\(clash.entity) \(clash.holder)"
            return clash.holderPath.map { "\(named) (\($0.relativePath))" } ?? named
        }
        if clashes.count == 1, let clash = clashes.first {
            return FolioError(
                .constraint,
                "\(subject(clash)) would hold \(clash.shownValues), which \(holder(clash)) holds already, but it must be unique; \(nothing)",
                hint: hint)
        }
        let lines = clashes.map { "  \(subject($0)): \($0.shownValues), held by \(holder($0)) too" }
        return FolioError(
            .constraint,
            "\(clashes.count) values must be unique but other documents hold them, so \(nothing):\n"
                + lines.joined(separator: "\n"),
            hint: hint)
    }
}

import ArgumentParser
import FolioCore
import FolioJSON
import Foundation

extension FolioCommand {
    /// `folio restore`: undoes soft deletes, or, with `--from`, writes a record back as a
    /// revision of the store's repository holds it.
    struct Restore: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "restore",
            abstract: "Bring back soft-deleted documents, or a record as a git revision holds it (--from).",
            discussion: """
                Without --from: the documents named (an id or path, or an entity and a query) \
                come back from a soft delete, with what their deletion cascaded to.

                With --from REV: the record named (its UUID, the start of its id, or its path; \
                a purged record by its whole UUID or path) is written as the revision holds \
                it, as one transaction checked against the schema as it is now, or only the \
                properties --property names. The whole record takes the revision's soft \
                delete too: one deleted now and live then comes back live. A purged record \
                comes back in the revision's day folder; a relationship whose related record \
                is gone is cleared, and named. A property the schema no longer has is \
                refused, not dropped. If the record's file changes meanwhile, nothing is \
                written (a conflict). A row per property: its value now (old) and the \
                restored one (new). Git is only read.

                Example:
                  folio restore Timer 'name == "Coffee Break"'
                  folio restore 0F6C1E2A --from HEAD~1
                  folio restore 0F6C1E2A --from main@{2026-11-01} --property name

                \(Failure.commandHelpText)
                """)

        @OptionGroup var store: StoreOptions
        @OptionGroup var target: DocumentTarget

        @Option(
            help: ArgumentHelp(
                "Write the record as this commit, branch or tag holds it (HEAD~1, main@{2026-11-01}).",
                valueName: "revision"))
        var from: String?

        @Option(
            name: .customLong("property"),
            help: ArgumentHelp("With --from: restore only this property (repeat for more).", valueName: "name"))
        var properties: [String] = []

        @OptionGroup var output: OutputOptions

        func run() throws {
            try Failure.reporting {
                let store = try store.open()
                if let from {
                    try restore(in: store, from: from)
                    return
                }
                guard properties.isEmpty, output.format == .table, !output.rawCSV else {
                    throw FolioError(
                        .invalidInput,
                        "--property, --format and --raw-csv go with --from, which names a revision, and none was given",
                        hint: "add --from REV (folio restore <id> --from HEAD~1 --property name)")
                }
                let documents = try target.documents(in: store, includeDeleted: true).filter {
                    $0.content["$deleted"] != nil
                }
                let changes = store.restoration(of: documents)
                try UniqueRefusal.commit(
                    changes, in: store,
                    hint:
                        "another document took the value while this one was deleted: change or delete that one first, then restore"
                )
                Terminal.print("\(counted(changes.count, "document")) restored")
            }
        }

        /// Writes one record back as revision `revision` holds it, and prints what changed.
        func restore(in store: DocumentStore, from revision: String) throws(FolioError) {
            guard target.query == nil, !target.all else {
                throw FolioError(
                    .invalidInput, "--from restores one record, named by its id or path, not an entity's documents",
                    hint: "give the record's UUID or path: folio restore <id> --from \(revision)")
            }
            let id = try RecordIdentity.id(target.target, in: store)
            let restore = try RecordRestore(
                of: id, in: store, from: revision, properties: properties.isEmpty ? nil : properties)
            let record =
                "\(restore.version.content["$entity"]?.stringValue ?? restore.version.path.entity) \(id.uuidString)"
            let at = "\(revision) (commit \(restore.version.commit.prefix(7)))"
            guard !restore.isUnchanged else {
                say("\(record) already holds what \(at) has; nothing was written.")
                if output.format != .table { try output.print(columns: Self.columns, rows: []) }
                return
            }
            try UniqueRefusal.commit(
                restore.changes, in: store,
                hint: "another record holds the value now: change that one first, or restore the other properties")
            let path = restore.current?.path.relativePath ?? restore.version.path.relativePath
            let what = restore.current == nil ? "brought back (it was purged)" : "restored"
            say("\(record) \(what) as \(at) holds it: \(path)")
            try output.print(
                columns: Self.columns, rows: Self.rows(restore, table: output.format == .table), localDates: nil,
                ids: IDColumns(["old", "new"], in: store))
        }

        /// What a row holds: the property, its value now and the restored one, and why a
        /// relationship was cleared.
        static let columns = ["property", "old", "new", "note"]

        /// A row per member that changes.
        static func rows(_ restore: RecordRestore, table: Bool) -> [[JSONValue]] {
            restore.properties.map { change in
                let cleared = restore.clearedRelationships.first { $0.name == change.name }
                let note = cleared.map { relationship in
                    let ids = relationship.missing.map(\.uuidString).joined(separator: ", ")
                    return "cleared: \(relationship.destination) \(ids) is no longer in the store"
                }
                return [
                    .string(change.name), change.oldCell(table: table), change.newCell(table: table),
                    note.map(JSONValue.string) ?? .null,
                ]
            }
        }

        /// A line about the whole restore: above a table, on standard error beside the
        /// other formats, so that their output stays rows only.
        func say(_ line: String) {
            if output.format == .table { Terminal.print("\(line)") } else { Terminal.printError("\(line)") }
        }
    }
}

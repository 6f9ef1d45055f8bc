import ArgumentParser
import FolioCore
import FolioJSON
import Foundation

extension FolioCommand {
    /// `folio diff`: the records that differ between two states of the store.
    struct Diff: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "diff",
            abstract:
                "Print the records that differ between two states of the store, with each property's old and new value.",
            discussion: """
                With no revision, the working tree against HEAD; with one, the working tree \
                against it; with two, the first against the second. Reads the store's git \
                repository (never writing to it) and only the files that changed. A record is \
                matched by its identity, the UUID its file is named for: one that moved to \
                another day folder is one change (moved), not a purge and a creation. A row \
                per changed property; a relationship shows the related record's UUID; a soft \
                delete and a restore are named so.

                An argument that names an entity of the store starts the entity and its query \
                (the language of `folio query`); the query keeps the records it matches in \
                either state, reading a related record as that state held it. A branch named \
                like an entity is named refs/heads/<name>.

                Example:
                  folio diff
                  folio diff HEAD~3 Timer
                  folio diff main origin/main Timer 'durationInSeconds > 600' --format json
                  folio diff v1 v2 --stat

                \(Failure.commandHelpText)
                """)

        @OptionGroup var store: StoreOptions
        @OptionGroup var output: OutputOptions

        @Argument(
            help: ArgumentHelp(
                "Up to two revisions (a branch, tag or commit), then an entity and a query of it.",
                valueName: "rev-entity-query"))
        var arguments: [String] = []

        @Flag(help: "Print only how many records of each entity differ, by what became of them.")
        var stat = false

        func run() throws {
            try Failure.reporting {
                let store = try self.store.open()
                let (revisions, entity, query) = try Self.read(arguments, in: store)
                let filter = try query.map { text throws(FolioError) in try store.parseQuery(text, entity: entity ?? "")
                }
                let diff: StoreDiff
                do {
                    diff = try StoreDiff(
                        of: store, from: revisions.first, to: revisions.count > 1 ? revisions[1] : nil, entity: entity,
                        matching: filter)
                } catch let error as FolioError where error.kind == .notFound && entity == nil && !revisions.isEmpty {
                    throw FolioError(
                        .notFound, "\(error.reason), and the store has no entity of that name either", path: store.root,
                        hint: "name a branch, tag or commit (see `git log --oneline`), or an entity (see `folio info`)")
                }
                RecordHistoryWarnings.print(for: diff)
                if stat {
                    let kinds = RecordChange.Kind.allCases
                    let rows = diff.counts.map { count -> [JSONValue] in
                        let numbers: [JSONValue] = kinds.map { kind in .integer(Int64(count.records[kind] ?? 0)) }
                        return [.string(count.entity)] + numbers + [.integer(Int64(count.total))]
                    }
                    try output.print(columns: ["entity"] + kinds.map(\.rawValue) + ["total"], rows: rows)
                } else {
                    try output.print(
                        columns: Self.columns, rows: Self.rows(diff.records, table: output.format == .table),
                        ids: IDColumns(["id", "old", "new"], in: store))
                }
            }
        }

        /// The arguments read as revisions (at most two), then an entity (the first that
        /// names one of the store's) and its query.
        static func read(_ arguments: [String], in store: DocumentStore) throws(FolioError) -> (
            revisions: [String], entity: String?, query: String?
        ) {
            var revisions: [String] = []
            var entity: String?
            var query: String?
            for argument in arguments {
                if entity == nil, (try? store.parseQuery("true", entity: argument)) != nil {
                    entity = argument
                } else if entity != nil, query == nil {
                    query = argument
                } else if entity == nil, revisions.count < 2 {
                    revisions.append(argument)
                } else {
                    throw FolioError(
                        .invalidInput, "\"\(argument)\" is one argument too many",
                        hint: "give up to two revisions, then an entity and one query of it (quoted as one argument)")
                }
            }
            return (revisions, entity, query)
        }

        /// What each row holds: what became of the record first, so that a table on a narrow
        /// terminal, which leaves out the columns at the right, keeps it.
        static let columns = ["change", "entity", "id", "property", "old", "new", "path", "from"]

        /// A row per changed property of each record (one with no property where none
        /// changed); a table shows a record's own cells on its first row only. `from` is
        /// where a moved record's file was.
        static func rows(_ records: [RecordDifference], table: Bool) -> [[JSONValue]] {
            var rows: [[JSONValue]] = []
            for record in records {
                let own: [JSONValue] = [
                    .string(record.kind.rawValue), .string(record.entity), .string(record.id.uuidString),
                ]
                let moved = record.pathBefore != nil && record.pathAfter != nil && record.pathBefore != record.pathAfter
                let paths: [JSONValue] = [.string(record.path), moved ? .string(record.pathBefore ?? "") : .null]
                guard !record.properties.isEmpty else {
                    rows.append(own + [.null, .null, .null] + paths)
                    continue
                }
                for (index, changed) in record.properties.enumerated() {
                    let shown = index == 0 || !table
                    rows.append(
                        (shown ? own : [JSONValue](repeating: .string(""), count: own.count))
                            + [.string(changed.name), changed.oldCell(table: table), changed.newCell(table: table)]
                            + (shown ? paths : [.string(""), .string("")]))
                }
            }
            return rows
        }
    }
}

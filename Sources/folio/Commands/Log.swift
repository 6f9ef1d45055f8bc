import ArgumentParser
import FolioCore
import FolioJSON
import Foundation

extension FolioCommand {
    /// `folio log`: the commits that changed one record, with each property's old and new value.
    struct Log: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "log",
            abstract:
                "Print the commits that changed one record, newest first, with each property's old and new value.",
            discussion: """
                Reads the store's git repository (never writing to it) for every commit that \
                changed the record's file: its creation, each change, a soft delete and a \
                restore, a move to another day folder (the same record: its file keeps its \
                UUID name), its purge, and a merge where both sides changed it (compared with \
                the merge's first parent). A row per changed property; a relationship shows \
                the related record's UUID. A purged record is found by its whole UUID or path.

                Example:
                  folio log 0F6C1E2A
                  folio log 0F6C1E2A-3B4D-4E5F-8A9B-0C1D2E3F4A5B --property name -n 5
                  folio log Timer/2026/11/22/0F6C1E2A-3B4D-4E5F-8A9B-0C1D2E3F4A5B.json
                  folio log 0F6C1E2A --since 2026-11-01 --format json

                \(Failure.commandHelpText)
                """)

        @OptionGroup var store: StoreOptions
        @OptionGroup var output: OutputOptions

        @Argument(
            help: ArgumentHelp(
                "The record's id (a UUID, or its first 4 or more digits, as a table shows it), or its path in the store.",
                valueName: "id-or-path"))
        var record: String

        @Option(help: ArgumentHelp("Only the commits that changed this property.", valueName: "name"))
        var property: String?

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp(
                "Only commits authored at or after this time (2026-11-22, 2026-11-22 09:30 in the store's time zone, or 2026-11-22T09:30:00Z).",
                valueName: "date"),
            transform: Self.dateText)
        var since: String?

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp(
                "Only commits authored at or before this time (as --since); a day (2026-11-22, today) takes in all of it.",
                valueName: "date"),
            transform: Self.dateText)
        var until: String?

        @Option(
            name: [.customShort("n"), .customLong("max-count")], parsing: .unconditional,
            help: ArgumentHelp("Only the newest this many commits (0 or more).", valueName: "count"),
            transform: NumberOption.whole(from: 0))
        var maxCount: Int?

        @Option(
            help: ArgumentHelp(
                "Read the past from this commit, branch or tag instead of HEAD.", valueName: "revision"))
        var revision: String?

        func run() throws {
            try Failure.reporting {
                let store = try self.store.open()
                let id = try RecordIdentity.id(record, in: store)
                let history = try RecordHistory(of: id, inStoreAt: store.root, from: revision)
                guard !history.changes.isEmpty else {
                    throw FolioError(
                        .notFound,
                        "no commit up to \(history.head.prefix(7)) changed a record with the id \(id.uuidString)",
                        path: store.root, hint: "commit the record with git first, or check the id")
                }
                RecordHistoryWarnings.print(for: history)
                let timeZone = store.manifest.timeZone
                let earliest = try since.map { text throws(FolioError) in try Self.date(text, "--since", timeZone) }
                let end = try until.map { text throws(FolioError) in try Self.end(of: text, timeZone) }
                var changes = property.map(history.changes(touching:)) ?? history.changes
                changes = changes.filter { change in
                    guard earliest.map({ change.date >= $0 }) ?? true else { return false }
                    guard let end else { return true }
                    return end.inclusive ? change.date <= end.date : change.date < end.date
                }
                if let maxCount { changes = Array(changes.prefix(maxCount)) }
                try output.print(
                    columns: Self.columns, rows: Self.rows(changes, only: property, table: output.format == .table),
                    localDates: LocalDates(columns: ["date"], in: store), ids: IDColumns(["old", "new"], in: store))
            }
        }

        /// What each row holds: what changed first, so that a table on a narrow terminal,
        /// which leaves out the columns at the right, keeps it.
        static let columns = ["commit", "change", "property", "old", "new", "author", "date", "subject", "path"]

        /// A row per changed property of each change (one with no property where none
        /// changed); a table shows a commit's own cells on its first row only, and its hash short.
        static func rows(_ changes: [RecordChange], only property: String?, table: Bool) -> [[JSONValue]] {
            var rows: [[JSONValue]] = []
            for change in changes {
                let properties = change.properties.filter { property == nil || $0.name == property }
                let path = JSONValue.string(change.pathAfter ?? change.pathBefore ?? "")
                let commit: [JSONValue] = [
                    .string(table ? String(change.commit.prefix(7)) : change.commit),
                    .string(change.kind.rawValue + (change.isMerge ? " (merge)" : "")),
                ]
                let after: [JSONValue] = [
                    .string(change.authorName), change.date.json, .string(change.subject), path,
                ]
                guard !properties.isEmpty else {
                    rows.append(commit + [.null, .null, .null] + after)
                    continue
                }
                for (index, changed) in properties.enumerated() {
                    let shown = index == 0 || !table
                    rows.append(
                        (shown ? commit : [.string(""), .string("")])
                            + [.string(changed.name), changed.oldCell(table: table), changed.newCell(table: table)]
                            + (shown ? after : [JSONValue](repeating: .string(""), count: after.count)))
                }
            }
            return rows
        }

        /// Refuses, before the command runs, text that is no date in any time zone; the
        /// store's time zone reads it once the store is open.
        @Sendable static func dateText(_ text: String) throws -> String {
            guard DateInput.date(text, timeZone: .gmt) != nil else {
                throw NumberOption.Refusal(
                    description:
                        "it is not a date; give a date such as 2026-11-22, 2026-11-22 09:30 or 2026-11-22T09:30:00Z")
            }
            return text
        }

        /// Where `--until` ends: at the time it names, or, for a day without a time
        /// (`2026-11-22`, `today`), at the next day's start, so the whole day is in.
        static func end(of text: String, _ timeZone: TimeZone) throws(FolioError) -> (date: Date, inclusive: Bool) {
            let start = try date(text, "--until", timeZone)
            guard text == "today" || text.wholeMatch(of: /[0-9]{4}-[0-9]{2}-[0-9]{2}/) != nil else {
                return (start, true)
            }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            return (calendar.date(byAdding: .day, value: 1, to: start) ?? start, false)
        }

        /// The time an option's text names.
        static func date(_ text: String, _ option: String, _ timeZone: TimeZone) throws(FolioError) -> Date {
            guard let date = DateInput.date(text, timeZone: timeZone) else {
                throw FolioError(
                    .invalidInput, "\(option) takes a date, not \"\(text)\"",
                    hint: "write 2026-11-22, 2026-11-22 09:30 (in the store's time zone) or 2026-11-22T09:30:00Z")
            }
            return date
        }
    }
}

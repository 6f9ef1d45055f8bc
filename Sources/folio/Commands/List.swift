import ArgumentParser
import FolioCore
import FolioJSON

extension FolioCommand {
    /// `folio ls`: documents by entity and day.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ls",
            abstract: "List an entity's documents, or every entity's day folders, by day range.",
            discussion: """
                Example:
                  folio ls                                   entities and their day folders
                  folio ls FocusSession --from 2026-03-01 --to 2026-03-31

                \(Failure.commandHelpText)
                """)

        @OptionGroup var store: StoreOptions
        @OptionGroup var past: RevisionOption
        @OptionGroup var output: OutputOptions

        @Argument(help: "The entity; without it, each entity's days and counts.")
        var entity: String?

        @Option(help: ArgumentHelp("The first day, as 2026-11-01.", valueName: "day"))
        var from: String?

        @Option(help: ArgumentHelp("The last day, as 2026-11-30.", valueName: "day"))
        var to: String?

        @Flag(help: "Include soft-deleted documents.")
        var includeDeleted = false

        func run() throws {
            try Failure.reporting {
                let store = try past.open(store)
                let from = try from.map { text throws(FolioError) in try Self.day(text) }
                let to = try to.map { text throws(FolioError) in try Self.day(text) }
                func inRange(_ day: Day) -> Bool { (from.map { day >= $0 } ?? true) && (to.map { day <= $0 } ?? true) }
                guard let entity else {
                    var rows: [[JSONValue]] = []
                    for entity in store.documentCounts.keys.sorted() {
                        var perDay: [Day: Int] = [:]
                        for document in store.documents(entity: entity)
                        where inRange(document.path.day) && (includeDeleted || document.content["$deleted"] == nil) {
                            perDay[document.path.day, default: 0] += 1
                        }
                        rows += perDay.keys.sorted().map {
                            [.string(entity), .string("\(entity)/\($0.folder)/"), .integer(Int64(perDay[$0]!))]
                        }
                    }
                    try output.print(columns: ["entity", "folder", "documents"], rows: rows)
                    return
                }
                _ = try store.parseQuery("true", entity: entity)
                let documents = store.documents(entity: entity).filter {
                    inRange($0.path.day) && (includeDeleted || $0.content["$deleted"] == nil)
                }
                // The deleted column only where it can hold something: with --include-deleted.
                try output.print(
                    columns: includeDeleted ? ["path", "deleted"] : ["path"],
                    rows: documents.map {
                        includeDeleted
                            ? [.string($0.path.relativePath), $0.content["$deleted"] ?? .null]
                            : [.string($0.path.relativePath)]
                    })
            }
        }

        /// A day as `--from` and `--to` take it: year, month and day in digits, joined by `-`
        /// (`2026-11-22`, `2026-1-5`); a sign, an empty part or a number past the calendar is refused.
        static func day(_ text: String) throws(FolioError) -> Day {
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            let numbers = parts.compactMap { part in
                part.isEmpty || part.count > 4 || !part.allSatisfy({ $0.isASCII && $0.isNumber }) ? nil : Int(part)
            }
            guard parts.count == 3, numbers.count == 3,
                let day = Day(year: numbers[0], month: numbers[1], day: numbers[2])
            else {
                throw .invalidInput("\(text) is not a day; write it as 2026-11-22 (a year from 0000 to 9999)")
            }
            return day
        }
    }
}

import ArgumentParser
import Folio

/// The `folio` command: inspect, query and maintain Folio stores without writing Swift.
@main
struct FolioCommand: ParsableCommand {
    /// The author the store's history records for the tool's writes.
    static let author = "folio"

    static let configuration = CommandConfiguration(
        commandName: "folio",
        abstract: "Inspect, query and maintain Folio stores: git-friendly trees of JSON documents.",
        discussion: """
            A Folio store is a directory of one JSON document per model instance, laid out as \
            <Entity>/<YYYY>/<MM>/<DD>/<UUID>.json beside a folio.json manifest. Commands find the \
            store in --store PATH, else in the nearest folder upward holding folio.json.

            Example:
              folio tour                      a guided run over the example stores in Data/
              folio query FocusSession 'state == "completed"' --sort -startTime --limit 5

            \(Failure.helpText)
            """,
        version: folioVersion,
        subcommands: [
            Init.self, Info.self, List.self, Get.self, Query.self, Count.self, Aggregate.self,
            Insert.self, SetValues.self, Delete.self, Restore.self, Purge.self, Edit.self,
            Check.self, SchemaCommand.self, Migrate.self, Export.self, Import.self, Reindex.self, Tour.self,
            History.self, Watch.self, GitSetup.self, MergeDriver.self, TextConv.self, Resolve.self, Sync.self,
        ]
    )
}

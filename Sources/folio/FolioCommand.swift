import ArgumentParser
import Folio

/// The `folio` command: inspect, query and maintain Folio stores without writing Swift.
@main
struct FolioCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "folio",
        abstract: "Inspect, query and maintain Folio stores: git-friendly trees of JSON documents.",
        discussion: """
            A Folio store is a directory of one JSON document per model instance, laid out as
            <Entity>/<YYYY>/<MM>/<DD>/<UUID>.json beside a folio.json manifest.

            Example:
              folio --version
            """,
        version: folioVersion
    )
}

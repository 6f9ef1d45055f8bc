import ArgumentParser
import FolioCore
import FolioJSON
import Foundation

extension FolioCommand {
    /// `folio init`: a new, empty store.
    struct Init: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "init", abstract: "Create an empty store in a folder.",
            discussion: """
                The schema comes from the first app that opens the store, or from --schema: a \
                folio.json of another store (its schema, version, merge policy and rules), or the \
                schema object such a manifest holds.

                Example:
                  folio init Notes --time-zone Europe/Berlin --schema OtherStore/folio.json

                \(Failure.commandHelpText)
                """)

        @Argument(help: "The folder; created when missing, and must be empty but for hidden entries such as .git.")
        var folder: String = "."

        @Option(help: "The time zone whose days name the folders (default: this machine's).")
        var timeZone: String?

        @Option(help: "A JSON file holding the schema (a manifest, or its \"schema\" object).")
        var schema: String?

        func run() throws {
            try Failure.reporting {
                var manifest = StoreManifest()
                if let timeZone {
                    guard let zone = StoreManifest.timeZone(identifier: timeZone) else {
                        throw FolioError.invalidInput(
                            "\(timeZone) is not a time zone; use a name such as Europe/Berlin or UTC")
                    }
                    manifest.timeZone = zone
                }
                if let schema {
                    let text: [UInt8]
                    do { text = Array(try Data(contentsOf: URL(fileURLWithPath: schema))) } catch {
                        throw FolioError.invalidInput("\(schema) cannot be read: \(error.localizedDescription)")
                    }
                    let json: JSONValue
                    do throws(JSONError) { json = try JSONReader().read(text, file: schema) } catch {
                        throw FolioError.unreadableJSON(error)
                    }
                    let findings: [StoreFinding]
                    if json["format"] != nil {
                        // Another store's manifest: its schema, version, merge policy and rules, in this store's time zone.
                        let other = try StoreManifest(json: json, path: schema, text: text)
                        (manifest.schema, manifest.schemaVersion, manifest.merge, manifest.rules) = (
                            other.schema, other.schemaVersion, other.merge, other.rules
                        )
                        findings = SchemaCheck.findings(
                            in: other.schema, text: text, file: schema, at: JSONPath([.key("schema")]))
                    } else {
                        // A schema written by hand has no Swift app behind it: its types must be Folio's.
                        manifest.schema = json
                        findings = SchemaCheck.findings(
                            in: json, text: text, file: schema, at: JSONPath(), allowsAppTypes: false)
                    }
                    for finding in findings { Terminal.printError("\(lines: finding.description)") }
                    let errors = findings.filter { $0.severity == .error }.count
                    guard errors == 0 else {
                        throw FolioError.invalidInput(
                            "\(schema) is not a schema Folio can use (\(errors) \(errors == 1 ? "error" : "errors") above), so no store was created; docs/format.md describes the schema"
                        )
                    }
                }
                let root = URL(fileURLWithPath: folder).standardizedFileURL.path
                // Hidden entries (`.git`, `.gitignore`) are welcome: a store often starts in a new
                // repository. Anything else could be taken for an entity folder, or be in the way.
                let present = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).filter {
                    !$0.hasPrefix(".")
                }.sorted()
                if !present.isEmpty {
                    let shown = present.prefix(3).joined(separator: ", ") + (present.count > 3 ? ", …" : "")
                    throw FolioError.invalidInput(
                        "\(root) is not empty (it holds \(shown)); create the store in an empty or new folder")
                }
                let store = try DocumentStore.create(at: root, manifest: manifest)
                try store.close()
                Terminal.print(
                    "Created an empty Folio store in \(store.root) (time zone \(manifest.timeZone.identifier)).")
            }
        }
    }
}

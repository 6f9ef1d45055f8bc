import ArgumentParser
import FolioCore
import FolioJSON
import Foundation

extension FolioCommand {
    /// `folio textconv`: a document as git's diff shows it.
    struct TextConv: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "textconv",
            abstract:
                "Print a record as entity, UUID and one property a line, for git diff (installed by `folio git install`).",
            discussion: """
                Git's diff, `git log -p` and `git show` of a store then read as property \
                changes: the first line names the record's entity and UUID, then each member \
                is one `property: value` line in the document's order, a date in the store's \
                time zone (from the folio.json of --store, which `folio git install` names in \
                the store's diff driver, else of the file's folder or the nearest above it; \
                UTC without one), a relationship as the related record's UUID. Other JSON is \
                printed in canonical form; a file that does not parse is printed as it is, so \
                a diff still shows it.

                Example:
                  folio textconv Timer/2026/11/01/0F6C1E2A-3B4D-4E5F-8A9B-0C1D2E3F4A5B.json
                  folio textconv --store apps/Timers /tmp/git-blob-copy.json

                \(Failure.commandHelpText)
                """)

        @Option(
            name: .customLong("store"),
            help: ArgumentHelp(
                "The folder of the store the file is a version of, whose manifest gives the time zone and schema.",
                valueName: "folder"))
        var storeFolder: String?

        @Argument(help: ArgumentHelp("The file to print.", valueName: "file"))
        var file: String

        func run() throws {
            try Failure.reporting {
                let bytes: [UInt8]
                do { bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file))) } catch {
                    throw FolioError.fileSystem(path: file, operation: "read", reason: error.localizedDescription)
                }
                guard let value = try? JSONReader().read(bytes) else {
                    FileHandle.standardOutput.write(Data(bytes))
                    return
                }
                if let object = value.objectValue {
                    let manifest = ManifestSearch.manifest(for: file, store: storeFolder)
                    let view = RecordView(
                        timeZone: manifest?.timeZone ?? TimeZone(identifier: "UTC")!, schema: manifest?.storedSchema)
                    if let text = view.text(of: object, fileName: file) {
                        FileHandle.standardOutput.write(Data(text.utf8))
                        return
                    }
                }
                FileHandle.standardOutput.write(Data((try? JSONWriter().write(value)) ?? bytes))
            }
        }
    }
}

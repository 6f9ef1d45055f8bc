import ArgumentParser
import FolioCore
import FolioJSON
import Foundation

extension FolioCommand {
    /// `folio textconv`: a document as git's diff shows it.
    struct TextConv: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "textconv",
            abstract: "Print a document in canonical form, for git diff (installed by `folio git install`).",
            discussion: """
                A file that does not parse is printed as it is, so a diff still shows it.

                Example:
                  folio textconv Timer/2026/11/01/0F6C1E2A-3B4D-4E5F-8A9B-0C1D2E3F4A5B.json

                \(Failure.commandHelpText)
                """)

        @Argument(help: ArgumentHelp("The file to print.", valueName: "file"))
        var file: String

        func run() throws {
            try Failure.reporting {
                let bytes: [UInt8]
                do { bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file))) } catch {
                    throw FolioError.fileSystem(path: file, operation: "read", reason: error.localizedDescription)
                }
                let canonical = (try? JSONReader().read(bytes)).flatMap { try? JSONWriter().write($0) } ?? bytes
                FileHandle.standardOutput.write(Data(canonical))
            }
        }
    }
}

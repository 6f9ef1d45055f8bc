import ArgumentParser
import FolioCore

/// How the tool reports an error: its message on standard error, then an exit code
/// that says what kind of failure it was (the codes of BSD's sysexits, documented in
/// every command's help).
enum Failure {
    /// Exit codes, the same for every command.
    enum Code: Int32 {
        /// The command ran and found something wrong: `check`'s errors, documents a read left
        /// out because they cannot be read, a `sync` that stopped at a conflict.
        case found = 1
        /// Bad input: a malformed query, an unknown entity or property, an invalid document,
        /// a symbolic link or stray file inside the store.
        case data = 65
        /// The store is missing, or the folder is not a store.
        case noStore = 66
        /// A program the command runs (git, the editor) could not be started or failed.
        case unavailable = 69
        /// Reading or writing a file failed (a full disk, permissions).
        case io = 74
        /// The store is locked by another process, or a file changed under the command; try again.
        case busy = 75
        /// The store's history is damaged: it was set aside (or, on a read-only store, not read).
        case damagedHistory = 76
    }

    /// The exit-code table for the tool's own help, `folio help`.
    static let helpText = """
        Exit codes: 0 success (a query that matches nothing too); 1 problems found; 64 bad usage; 65 bad input \
        (query, document, names, a link in the store); 66 not a store; 69 git or the editor \
        failed; 74 file system error; 75 store locked or a file changed meanwhile (try again); 76 the \
        store's history is damaged (set aside; the documents are not affected).
        """

    /// The line a command's help gives the exit codes: the commonest, and where the rest are
    /// told, so the table is read once rather than at the end of every screen.
    static let commandHelpText = commandHelpText(also: nil)

    /// The exit-codes line of a command's help that names one more code of its own: `edit`'s
    /// and `sync`'s 69, when their editor or git fails.
    static func commandHelpText(also code: String?) -> String {
        "Exit codes: 0 success, 1 problems found, 64 bad usage, 65 bad input\(code.map { ", " + $0 } ?? "") and the"
            + " rest as `folio help` lists them."
    }

    /// Runs a command's work, turning Folio's errors into a message and an exit code; a program
    /// the terminal's ^C or ^\ ended (`InterruptedChild`) has its message printed, then ends the
    /// tool by the same signal.
    static func reporting(_ work: () throws -> Void) throws {
        do {
            try work()
        } catch let error as FolioError {
            // Folio's messages are already diagnostics ("path: error: what\nhint: ..."); colour their labels only.
            Terminal.printError(
                Terminal.diagnostic(error.description, shownAs: Terminal.colour("error:", 31, onError: true)))
            throw ExitCode(code(for: error).rawValue)
        } catch let interrupted as InterruptedChild {
            Terminal.printError(
                Terminal.diagnostic(
                    interrupted.error.description, shownAs: Terminal.colour("error:", 31, onError: true)))
            ForegroundChild.end(by: interrupted.signal)
        }
    }

    static func code(for error: FolioError) -> Code {
        switch error.kind {
        case .invalidStore: .noStore
        case .fileSystem, .unfinishedCommit: .io
        case .locked, .conflict: .busy
        case .externalProgram: .unavailable
        case .damagedHistory: .damagedHistory
        // Bad input of every other kind, and kinds added later.
        default: .data
        }
    }
}

import ArgumentParser
import FolioCore
import Foundation

extension FolioCommand {
    /// `folio git install|uninstall`: the merge driver and diff filter in a clone.
    struct GitSetup: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "git",
            abstract: "Install or remove Folio's merge driver and diff filter in this clone of the store's repository.",
            discussion: """
                Git never takes driver commands from a pull, so every clone installs them once. It also \
                sets merge.renames and merge.directoryRenames to false in the repository: a document's \
                identity is its file name, and git's rename detection would pair a removed document with \
                a similar new one. (Git 2.39's default "ort" strategy ignores merge.renames; `folio sync` \
                therefore merges with `-s recursive -X no-renames`, and so should a hand-run `git pull`.)

                Example:
                  folio git install --store Data/TimerApp
                  folio git uninstall

                \(Failure.commandHelpText)
                """,
            subcommands: [Install.self, Uninstall.self])

        /// The first and the last line of the block `install` keeps in the store's `.gitattributes`.
        static let blockMarkers = (
            begin:
                "# folio git install: begin (documents merge and diff by property; run `folio git install` in each clone)",
            end: "# folio git install: end"
        )

        /// The lines `install` keeps in the store's `.gitattributes`, between its markers, for
        /// the store whose diff driver is `driver`.
        static func attributeLines(diffDriver driver: String) -> [String] {
            [
                blockMarkers.begin, "*.json merge=folio diff=\(driver)", "*.bin binary", "/folio.json !merge !diff",
                blockMarkers.end,
            ]
        }

        /// The diff driver of the store whose folder is `prefix` from the top of the work tree
        /// (as `git rev-parse --show-prefix` says it, "" at the top): `folio-` and a hash of
        /// that path. Git hands a textconv only a temporary copy of a version, so each store
        /// has a driver of its own, whose command names the store's folder: the view then reads
        /// that store's manifest (its time zone and schema), wherever the store is.
        static func diffDriver(forStoreAt prefix: String) -> String {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a: stable across runs and machines
            for byte in prefix.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            return "folio-" + String(format: "%08x", UInt32(truncatingIfNeeded: hash))
        }

        /// The repository configuration `install` sets, as (key, value) for this binary and
        /// the store whose folder is `prefix` from the top of the work tree. `diff.folio`
        /// serves the `.gitattributes` an older `install` wrote (a manifest is then looked
        /// for around the file and the top of the work tree).
        static func configuration(executable: String, storePrefix prefix: String) -> [(String, String)] {
            let tool = Git.shellQuoted(executable)
            // Git runs a textconv from the top of the work tree: the store's folder is named from there.
            let folder = Git.shellQuoted(prefix.isEmpty ? "." : String(prefix.dropLast(prefix.hasSuffix("/") ? 1 : 0)))
            return [
                ("merge.folio.name", "Folio: merge documents by property"),
                ("merge.folio.driver", "\(tool) merge-driver %O %A %B %P"),
                ("diff.folio.textconv", "\(tool) textconv"),
                ("diff.\(diffDriver(forStoreAt: prefix)).textconv", "\(tool) textconv --store \(folder)"),
                // A document's identity is its file name: git's rename detection pairs a removed
                // document with a similar new one and merges two documents into one, and its
                // directory rename detection moves new documents out of their day folder.
                ("merge.renames", "false"),
                ("merge.directoryRenames", "false"),
            ]
        }

        /// The store's `.gitattributes` without Folio's block.
        static func attributesWithoutBlock(_ text: String) -> [String] {
            var lines: [String] = []
            var inside = false
            for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
                if line == blockMarkers.begin {
                    inside = true
                    continue
                }
                if inside {
                    if line == blockMarkers.end { inside = false }
                    continue
                }
                lines.append(line)
            }
            while lines.last == "" { lines.removeLast() }
            return lines
        }

        /// Writes the store's `.gitattributes` with these lines, or removes it when there are none.
        static func writeAttributes(_ lines: [String], in store: DocumentStore) throws(FolioError) {
            try store.writeOwnFile(
                ".gitattributes", bytes: lines.isEmpty ? nil : Array((lines.joined(separator: "\n") + "\n").utf8))
        }

        /// The store's `.gitattributes`, or "" when it has none. One that cannot be read (not
        /// UTF-8, a link, no permission) is an error: it is the user's, and is never rewritten
        /// or deleted unread.
        static func existingAttributes(in store: DocumentStore) throws(FolioError) -> String {
            guard let bytes = try store.readOwnFile(".gitattributes") else { return "" }
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw .invalidDocument(
                    path: ".gitattributes",
                    reason:
                        "is not UTF-8 text, so Folio leaves it alone; fix it or add Folio's lines by hand (folio git install --help lists them)"
                )
            }
            return text
        }

        /// `folio git install`.
        struct Install: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "install",
                abstract:
                    "Write .gitattributes in the store and the merge.folio / diff.folio entries in the repository's config.",
                discussion: """
                    Safe to run again: it replaces what it wrote before, e.g. after moving the folio binary.

                    The configuration names the folio on your PATH when it is this same program, else \
                    this binary. A binary in a build folder (.build, even through a link) is refused, \
                    since `swift package clean` or the next build removes or replaces it: install a \
                    release build on your PATH first, as the error message says.

                    Example:
                      folio git install

                    \(Failure.commandHelpText)
                    """)

            @OptionGroup var store: StoreOptions

            func run() throws {
                try Failure.reporting {
                    let opened = try store.open()
                    let git = Git(folder: opened.root)
                    _ = try git.topLevel()
                    let prefix = try git.storePrefix()
                    // Before anything is written: a build folder's binary is refused.
                    let tool = try Git.installable()
                    let file = opened.root + "/.gitattributes"
                    let driver = GitSetup.diffDriver(forStoreAt: prefix)
                    let kept = GitSetup.attributesWithoutBlock(try GitSetup.existingAttributes(in: opened))
                    try GitSetup.writeAttributes(
                        (kept.isEmpty ? [] : kept + [""]) + GitSetup.attributeLines(diffDriver: driver), in: opened)
                    for (key, value) in GitSetup.configuration(executable: tool, storePrefix: prefix) {
                        try git.checked("config", "--local", key, value)
                    }
                    Terminal.print(
                        "Installed: \(file) (commit it), and merge.folio, diff.folio, diff.\(driver), merge.renames=false, merge.directoryRenames=false in this clone's .git/config, running \(tool)"
                    )
                }
            }
        }

        /// `folio git uninstall`.
        struct Uninstall: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "uninstall",
                abstract: "Remove what `folio git install` wrote: its .gitattributes lines and its git config entries.",
                discussion: """
                    Example:
                      folio git uninstall

                    \(Failure.commandHelpText)
                    """)

            @OptionGroup var store: StoreOptions

            func run() throws {
                try Failure.reporting {
                    let opened = try store.open()
                    let git = Git(folder: opened.root)
                    _ = try git.topLevel()
                    let driver = GitSetup.diffDriver(forStoreAt: try git.storePrefix())
                    try GitSetup.writeAttributes(
                        GitSetup.attributesWithoutBlock(try GitSetup.existingAttributes(in: opened)), in: opened)
                    for section in ["merge.folio", "diff.folio", "diff.\(driver)"] {
                        // Exit 128 says the section is not there: nothing to remove.
                        let run = try git.run(["config", "--local", "--remove-section", section])
                        guard run.succeeded || run.status == 128 else {
                            throw FolioError.externalProgram(
                                "git config --remove-section \(section) failed: \(run.errors)")
                        }
                    }
                    for key in ["merge.renames", "merge.directoryRenames"] {
                        // Exit 5 says the key is not set.
                        let run = try git.run(["config", "--local", "--unset", key])
                        guard run.succeeded || run.status == 5 else {
                            throw FolioError.externalProgram("git config --unset \(key) failed: \(run.errors)")
                        }
                    }
                    Terminal.print(
                        "Uninstalled: Folio's lines in \(opened.root)/.gitattributes and merge.folio, diff.folio, diff.\(driver), merge.renames, merge.directoryRenames in .git/config"
                    )
                }
            }
        }
    }
}

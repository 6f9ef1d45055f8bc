import ArgumentParser
import FolioCore
import Foundation

extension FolioCommand {
    /// `folio sync`: commit, pull with the merge driver, check, push.
    struct Sync: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sync",
            abstract: "Commit the store's changes, pull (merging documents by property), check the store, and push.",
            discussion: """
                The commit message counts what changed per entity ("folio sync: Timer +2 ~1 -0"). \
                The pull is a merge (--no-rebase, -s recursive -X no-renames: a document's identity is \
                its file name) with Folio's merge driver, which `folio git install` sets up once per clone. The first step that fails stops the sync and says what to do:
                conflicts to settle with `folio resolve`, `folio check` errors to fix, a push refused. \
                Before anything is committed, the sync checks that it has somewhere to push: the \
                remote named, else the branch's upstream (none: it says how to set one), and, for a \
                remote on this machine, that the repository has the branch and takes pushes into it \
                (a non-bare one with the branch checked out refuses them, unless its \
                receive.denyCurrentBranch is updateInstead); when not, it commits nothing. \
                Git runs in the terminal's foreground, so it (or ssh) may ask there for a password \
                or passphrase; ^C ends it and the sync. On a terminal, the pull and the push show \
                git's own progress.

                Example:
                  folio sync
                  folio sync origin

                \(Failure.commandHelpText(also: "69 git failed"))
                """)

        @OptionGroup var store: StoreOptions

        @Argument(
            help: ArgumentHelp(
                "The remote to pull from and push to (default: the branch's upstream).", valueName: "remote"))
        var remote: String?

        func run() throws {
            try Failure.reporting {
                let root = try store.open().root
                let git = Git(folder: root)
                let top = try git.topLevel()
                guard (try? git.checked("config", "--get", "merge.folio.driver"))?.isEmpty == false else {
                    throw FolioError.invalidInput(
                        "this clone has no Folio merge driver, so git would merge documents line by line; run `folio git install` first"
                    )
                }
                let branch = try git.checked("rev-parse", "--abbrev-ref", "HEAD")
                // Before the commit: a sync that could not push must change nothing.
                let target = try SyncTarget.find(remote: remote, branch: branch, git: git, top: top)

                try git.checked("add", "--all", "--", ".")
                let changes = try git.checked("diff", "--cached", "--name-status", "--no-renames", "--", ".")
                if changes.isEmpty {
                    Terminal.print("Nothing to commit in \(root)")
                } else {
                    let message = Self.message(changes: changes, storeRoot: root, top: top)
                    try git.checked("commit", "-q", "-m", message)
                    Terminal.print("Committed: \(message)")
                }

                // No rename detection: a document's identity is its file name, and git would pair a
                // removed document with a similar new one (the "ort" strategy of git 2.39 ignores
                // merge.renames, so the strategy is named).
                let pull = try git.run(
                    ["pull", "--no-rebase", "--no-edit", "--strategy=recursive", "-Xno-renames"] + GitProgress.option
                        + ["--"] + target.arguments, showingMeters: true)
                if !pull.succeeded {
                    let unmerged = try git.checked("diff", "--name-only", "--diff-filter=U")
                    guard !unmerged.isEmpty else {
                        let said = pull.errors.trimmingCharacters(in: .whitespacesAndNewlines)
                        throw FolioError(
                            .externalProgram, "git pull failed, nothing was pushed: \(said)",
                            hint: said.contains("couldn't find remote ref")
                                ? "the remote has no branch \(target.branch) yet: push it once (git push -u \(target.remote) \(target.branch)), then run folio sync"
                                : "fix what git says above (the remote's URL, access to it), then run folio sync again; what was committed stays committed here"
                        )
                    }
                    let files = unmerged.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
                    Terminal.printError(
                        """
                        The pull left conflicts in \(counted(unmerged.split(separator: "\n").count, "file")):
                        \(lines: files)
                        Documents keep both values in "$conflicts": `folio check` lists them, `folio resolve <file> --ours|--theirs|property=value`
                        settles them. Then `git add` the files, `git commit`, and run `folio sync` again. Nothing was pushed.
                        """)
                    throw ExitCode(Failure.Code.found.rawValue)
                }
                Terminal.print("Pulled\(remote.map { " from \($0)" } ?? "")")

                let bar = Progress("check", total: 0)
                let findings = try DocumentStore.open(at: root, lockTimeout: store.lockTimeout).check {
                    checked, total in bar.advance(to: checked, of: total)
                }
                bar.finish()
                let errors = findings.filter { $0.severity == .error }
                if !errors.isEmpty {
                    for error in errors { Terminal.printError("\(lines: error.description)") }
                    Terminal.printError(
                        "folio check found \(counted(errors.count, "error")) after the pull (above); fix them, commit, and run `folio sync` again. Nothing was pushed."
                    )
                    throw ExitCode(Failure.Code.found.rawValue)
                }

                let push = try git.run(["push"] + GitProgress.option + ["--"] + target.arguments, showingMeters: true)
                guard push.succeeded else { throw Self.pushFailure(push.errors, to: target, top: top) }
                Terminal.print("Pushed; the store is in sync")
            }
        }

        /// Why a push failed and what to do: a sync run again helps only when someone pushed
        /// meanwhile; a remote that refuses pushes into its checked-out branch (one the check
        /// before the commit could not see, over the network) refuses them every time.
        static func pushFailure(_ errors: String, to target: SyncTarget, top: String) -> FolioError {
            let said = errors.trimmingCharacters(in: .whitespacesAndNewlines)
            let committed = "what was committed and merged stays committed here, and nothing of it is on the remote"
            if said.contains("denyCurrentBranch") || said.contains("refusing to update checked out branch") {
                return FolioError(
                    .externalProgram,
                    "git push failed: \(said); the remote \(target.remote) has a work tree with \(target.branch) checked out, and refuses pushes into it, so running folio sync again would fail the same way; \(committed)",
                    hint: SyncTarget.denyCurrentBranchHint(
                        remote: target.remote, path: target.url.flatMap { SyncTarget.localPath(of: $0, top: top) }))
            }
            if said.contains("[rejected]") || said.contains("fetch first") || said.contains("non-fast-forward") {
                return FolioError(
                    .externalProgram,
                    "git push failed: \(said); someone pushed to \(target.remote) since the pull; \(committed)",
                    hint: "run folio sync again: it pulls their commits, merges, checks and pushes")
            }
            return FolioError(
                .externalProgram, "git push failed: \(said); \(committed)",
                hint:
                    "fix what git says above (access to the remote, its URL, a hook that refused the push), then run folio sync again"
            )
        }

        /// "folio sync: Timer +2 ~1 -0, TodoItem +1 ~0 -0" from `git diff --name-status` lines.
        static func message(changes: String, storeRoot: String, top: String) -> String {
            let prefix = storeRoot == top ? "" : String(storeRoot.dropFirst(top.count + 1)) + "/"
            var counts: [String: (added: Int, changed: Int, removed: Int)] = [:]
            var other = 0
            for line in changes.split(separator: "\n") {
                let fields = line.split(separator: "\t", maxSplits: 1).map(String.init)
                guard fields.count == 2 else { continue }
                let relative = fields[1].hasPrefix(prefix) ? String(fields[1].dropFirst(prefix.count)) : fields[1]
                guard relative.hasSuffix(".json"), let path = DocumentPath(relativePath: relative) else {
                    other += 1
                    continue
                }
                var count = counts[path.entity] ?? (0, 0, 0)
                switch fields[0].first {
                case "A": count.added += 1
                case "D": count.removed += 1
                default: count.changed += 1
                }
                counts[path.entity] = count
            }
            var parts = counts.keys.sorted().map { entity in
                let count = counts[entity]!
                return "\(entity) +\(count.added) ~\(count.changed) -\(count.removed)"
            }
            if other > 0 { parts.append("\(other) other files") }
            return "folio sync: " + (parts.isEmpty ? "no documents" : parts.joined(separator: ", "))
        }
    }
}

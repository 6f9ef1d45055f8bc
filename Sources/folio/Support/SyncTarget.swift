import FolioCore
import Foundation

/// Where `folio sync` pulls from and pushes to, found and checked before anything is
/// committed: a sync that cannot push should say so while nothing has changed, not after a
/// commit, with advice that would fail the same way at every run.
///
/// Finding it only reads: git's configuration here, and, for a remote on this machine, that
/// repository's (`rev-parse`, `symbolic-ref`, `config --get`: nothing that writes, or runs a
/// hook or a program the remote's configuration names).
struct SyncTarget {
    /// The remote as the user or the configuration names it.
    var remote: String
    /// The branch on the remote.
    var branch: String
    /// The URL (or path) a push goes to, when the configuration or the user gives one.
    var url: String?
    /// What `git pull` and `git push` are given after their options: the remote and the
    /// branch when the remote was named on the command line, else nothing (the upstream).
    var arguments: [String]

    /// The target of a sync of `branch`: `remote` and the branch of the same name when given,
    /// else the branch's upstream. Throws `.invalidInput` when there is none, or when the
    /// remote is a repository on this machine that would refuse the push: one with a work
    /// tree where the branch is checked out (git's `receive.denyCurrentBranch`), or one
    /// without the branch. `top` is the work tree's top folder, which a relative remote path
    /// is relative to, as git reads it.
    static func find(remote: String?, branch: String, git: Git, top: String) throws(FolioError) -> SyncTarget {
        let nothing = "nothing was committed"
        guard branch != "HEAD" else {
            throw FolioError(
                .invalidInput, "no branch is checked out (HEAD is detached), so there is nothing to sync; \(nothing)",
                hint: "check out the branch to sync: git switch <branch>")
        }
        var target: SyncTarget
        if let remote {
            // git pull hands the remote on to git fetch without a `--`: a leading "-" would be an option.
            guard !remote.hasPrefix("-") else {
                throw FolioError(
                    .invalidInput, "\"\(remote)\" is not a remote: a remote's name, URL or path does not start with -",
                    hint: "name a remote `git remote -v` lists, or its URL")
            }
            target = SyncTarget(remote: remote, branch: branch, url: nil, arguments: [remote, branch])
            let configured = try git.run(["remote", "get-url", "--push", "--", remote])
            if configured.succeeded {
                target.url = configured.output.trimmingCharacters(in: .whitespacesAndNewlines)
            } else if remote.contains("/") || remote.contains(":") {
                target.url = remote  // a URL or a path, as git pull and push take one
            } else {
                throw FolioError(
                    .invalidInput, "this clone has no remote named \"\(remote)\"; \(nothing)",
                    hint: try Self.remotesHint(git: git, branch: branch))
            }
        } else {
            let name = try git.run(["config", "--get", "branch.\(branch).remote"])
            let merge = try git.run(["config", "--get", "branch.\(branch).merge"])
            guard name.succeeded, merge.succeeded else {
                throw FolioError(
                    .invalidInput,
                    "the branch \(branch) has no upstream, so there is nowhere to pull from or push to; \(nothing)",
                    hint: try Self.remotesHint(git: git, branch: branch))
            }
            let remote = name.output.trimmingCharacters(in: .whitespacesAndNewlines)
            let reference = merge.output.trimmingCharacters(in: .whitespacesAndNewlines)
            let heads = "refs/heads/"
            // "." is a branch of this same repository.
            let configured = remote == "." ? nil : try git.run(["remote", "get-url", "--push", "--", remote])
            target = SyncTarget(
                remote: remote,
                branch: reference.hasPrefix(heads) ? String(reference.dropFirst(heads.count)) : reference,
                url: configured?.succeeded == true
                    ? configured?.output.trimmingCharacters(in: .whitespacesAndNewlines) : nil,
                arguments: [])
        }
        if let url = target.url, let path = Self.localPath(of: url, top: top) {
            try target.check(repository: path, url: url)
        }
        return target
    }

    /// Refuses a repository on this machine that would refuse the push; says nothing of one
    /// git cannot read here (owned by another user, say), which the pull or push then reports.
    private func check(repository path: String, url: String) throws(FolioError) {
        let nothing = "nothing was committed"
        let named = url == remote ? "the remote \(remote)" : "the remote \(remote) (\(url))"
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
            throw FolioError(
                .invalidInput, "\(named) is a path on this machine, but \(path) is no folder; \(nothing)",
                hint: "correct the remote's URL: git remote set-url \(remote) <url>")
        }
        let there = Git(folder: path)
        let found = try there.run(["rev-parse", "--absolute-git-dir", "--is-bare-repository"])
        let lines = found.output.split(separator: "\n").map(String.init)
        let real = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        // A folder that is no repository lets git look further up, into one that holds it.
        guard found.succeeded, lines.count == 2,
            [real, real + "/.git"].contains(URL(fileURLWithPath: lines[0]).resolvingSymlinksInPath().path)
        else {
            if found.succeeded || found.errors.contains("not a git repository") {
                throw FolioError(
                    .invalidInput, "\(named) is \(path), which is not a git repository; \(nothing)",
                    hint:
                        "correct the remote's URL (git remote set-url \(remote) <url>), or make it one: git init --bare \(path)"
                )
            }
            return
        }
        let hasBranch = try there.run(["rev-parse", "--quiet", "--verify", "refs/heads/\(branch)"]).succeeded
        guard hasBranch else {
            throw FolioError(
                .invalidInput,
                "\(named) has no branch \(branch) yet, so there is nothing to pull from it; \(nothing)",
                hint:
                    "push the branch once, setting it as the upstream: git push -u \(remote) \(branch); then run folio sync"
            )
        }
        guard lines[1] == "false" else { return }
        let checkedOut = try there.run(["symbolic-ref", "--quiet", "HEAD"])
        guard checkedOut.output.trimmingCharacters(in: .whitespacesAndNewlines) == "refs/heads/\(branch)" else {
            return
        }
        let setting = try there.run(["config", "--get", "receive.denyCurrentBranch"]).output
            .trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        // Unset is "refuse"; so are the true values of a boolean.
        guard ["", "refuse", "true", "yes", "on", "1"].contains(setting) else { return }
        throw FolioError(
            .invalidInput,
            "\(named) is a repository with a work tree, and \(branch) is the branch checked out there: git refuses a push into it (receive.denyCurrentBranch), so the sync could never push; \(nothing)",
            hint: Self.denyCurrentBranchHint(remote: remote, path: path))
    }

    /// What to do about a remote that refuses a push into its checked-out branch.
    static func denyCurrentBranchHint(remote: String, path: String?) -> String {
        let place = path ?? "<the remote's folder>"
        return
            "sync through a bare repository (git clone --bare \(place) \(place).git; git remote set-url \(remote) \(place).git), or let the remote's work tree take pushes when it is clean: git -C \(place) config receive.denyCurrentBranch updateInstead"
    }

    /// What to do without a remote to sync with: the remotes there are, or how to add one.
    private static func remotesHint(git: Git, branch: String) throws(FolioError) -> String {
        let remotes = try git.run(["remote"]).output.split(separator: "\n").map(String.init)
        guard let first = remotes.first else {
            return
                "add a remote and push the branch to it once: git remote add origin <url>; git push -u origin \(branch)"
        }
        return
            "name one (folio sync \(first)), or make it the branch's upstream: git push -u \(first) \(branch); the remotes are \(remotes.joined(separator: ", "))"
    }

    /// The folder a remote URL names on this machine (a path, or a `file://` URL), or `nil`
    /// for one reached over the network (`host:path`, `ssh://`, `https://`).
    static func localPath(of url: String, top: String) -> String? {
        var path = url
        if path.hasPrefix("file://") {
            path = String(path.dropFirst("file://".count))
            path = path.removingPercentEncoding ?? path
        } else if path.contains("://") {
            return nil
        } else if let colon = path.firstIndex(of: ":"), !path[..<colon].contains("/") {
            return nil  // scp's form, host:path
        }
        guard !path.isEmpty else { return nil }
        return path.hasPrefix("/")
            ? path : URL(fileURLWithPath: top).appendingPathComponent(path).standardizedFileURL.path
    }
}

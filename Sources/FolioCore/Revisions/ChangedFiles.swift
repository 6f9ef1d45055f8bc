import Foundation

/// The files of a store that differ between two states, as git's plumbing lists them:
/// between two commits' trees (`git diff-tree`), or between a commit and the working tree
/// (`git diff-index` for the files git tracks, `git ls-files --others` for those it does
/// not yet). Neither writes: `diff-index` uses the index's stat data as it is, and lists a
/// file whose stat data is stale as changed, for the caller to read and compare.
struct ChangedFiles {
    /// One file that may differ.
    struct File {
        /// The file's path relative to the store.
        var path: String
        /// Its blob in the older state; nil where the file is not there.
        var before: String?
        /// Its blob in the newer state; nil where it is not there, or where the newer
        /// state is the working tree (whose file is read directly).
        var after: String?
    }

    /// The files, in git's order (tracked ones first when the newer state is the working tree).
    var files: [File] = []

    /// Configuration that would run a program or change what the listing holds, off for the run.
    private static let settings = ["-c", "core.fsmonitor=false", "-c", "core.untrackedCache=false"]

    /// The files of the store that differ between commits `old` and `new`.
    init(in repository: StoreRepository, from old: String, to new: String) throws(FolioError) {
        let output = try repository.checked(
            Self.settings + ["diff-tree", "-z", "-r", "--raw", "--no-renames", "--no-abbrev", old, new, "--", "."])
        files = try Self.raw(output, prefix: repository.prefix)
    }

    /// The files of the store that may differ between commit `old` and the working tree.
    init(in repository: StoreRepository, workingTreeAgainst old: String) throws(FolioError) {
        let tracked = try repository.checked(
            Self.settings + ["diff-index", "-z", "--raw", "--no-renames", "--no-abbrev", old, "--", "."])
        files = try Self.raw(tracked, prefix: repository.prefix).map { File(path: $0.path, before: $0.before) }
        let untracked = try repository.checked(
            Self.settings + ["ls-files", "-z", "--others", "--exclude-standard", "--full-name", "--", "."])
        for path in untracked.split(separator: 0) {
            let path = String(decoding: path, as: UTF8.self)
            guard path.hasPrefix(repository.prefix) else { continue }
            files.append(File(path: String(path.dropFirst(repository.prefix.count))))
        }
    }

    /// The files of `--raw -z` output (`:<mode> <mode> <blob> <blob> <status>`, then the
    /// path), relative to the store; a blob of zeros is none.
    static func raw(_ output: [UInt8], prefix: String) throws(FolioError) -> [File] {
        let fields = output.split(separator: 0, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        var files: [File] = []
        var index = 0
        while index < fields.count {
            let field = fields[index]
            guard !field.isEmpty else {
                index += 1
                continue
            }
            let parts = field.dropFirst().split(separator: " ")
            guard field.hasPrefix(":"), parts.count == 5, index + 1 < fields.count else {
                throw FolioError(
                    .externalProgram, "git printed what Folio cannot read as a file list: \"\(field.prefix(80))\"",
                    hint: "check that `git --version` is 2.31 or later")
            }
            func blob(_ text: Substring) -> String? { text.allSatisfy { $0 == "0" } ? nil : String(text) }
            let path = fields[index + 1]
            if path.hasPrefix(prefix) {
                files.append(
                    File(
                        path: String(path.dropFirst(prefix.count)), before: blob(parts[2]), after: blob(parts[3])))
            }
            index += 2
        }
        return files
    }
}

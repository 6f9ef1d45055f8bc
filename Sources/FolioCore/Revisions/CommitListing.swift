import Foundation

/// The commits `git log --raw` lists for one record's files, read from its `-z` output:
/// each commit's hash, parents, author, date and subject, and the files it changed with
/// their blob ids before and after.
struct CommitListing {
    /// One changed file of a commit, as `--raw` gives it.
    struct FileChange {
        /// The blob before the commit; nil where the file was added.
        var before: String?
        /// The blob after it; nil where the file was removed.
        var after: String?
        /// The file's path relative to the top of the work tree.
        var path: String
    }

    /// One commit.
    struct Commit {
        /// The whole hash.
        var hash: String
        /// The parents' whole hashes, as the commit records them.
        var parents: [String]
        /// The author's name and email address, as the commit records them (no mailmap).
        var authorName: String
        var authorEmail: String
        /// The author date.
        var date: Date
        /// The message's first line.
        var subject: String
        /// The files of the pathspec the commit changed (from its first parent in a merge).
        var files: [FileChange] = []
    }

    /// The `--format` the listing reads: a 0x01 byte before each commit, its fields apart by NUL.
    /// The author's date as seconds since 1970 (`%at`): a `Date` needs no more, and reading
    /// a number costs nothing where a date formatter loads the time zone data first.
    static let format = "--format=%x01%H%x00%P%x00%an%x00%ae%x00%at%x00%s"

    /// The commits, in git's order.
    var commits: [Commit] = []

    /// Reads `git log -z --raw` output in `format`; throws when it is not that.
    init(_ output: [UInt8]) throws(FolioError) {
        let fields = output.split(separator: 0, omittingEmptySubsequences: false).map {
            String(decoding: $0.drop { $0 == 0x0A }, as: UTF8.self)
        }
        var index = 0
        while index < fields.count {
            let field = fields[index]
            if field.hasPrefix("\u{1}") {
                guard index + 5 < fields.count, let seconds = Int64(fields[index + 4]) else {
                    throw Self.unexpected(field)
                }
                commits.append(
                    Commit(
                        hash: String(field.dropFirst()),
                        parents: fields[index + 1].split(separator: " ").map(String.init),
                        authorName: fields[index + 2], authorEmail: fields[index + 3],
                        date: Date(timeIntervalSince1970: TimeInterval(seconds)),
                        subject: fields[index + 5]))
                index += 6
            } else if field.hasPrefix(":") {
                // `:<mode> <mode> <blob> <blob> <status>`, then the path.
                let parts = field.dropFirst().split(separator: " ")
                guard parts.count == 5, index + 1 < fields.count, !commits.isEmpty else { throw Self.unexpected(field) }
                let before = String(parts[2]).allSatisfy { $0 == "0" } ? nil : String(parts[2])
                let after = String(parts[3]).allSatisfy { $0 == "0" } ? nil : String(parts[3])
                commits[commits.count - 1].files.append(
                    FileChange(before: before, after: after, path: fields[index + 1]))
                index += 2
            } else if field.isEmpty {
                index += 1
            } else {
                throw Self.unexpected(field)
            }
        }
    }

    private static func unexpected(_ field: String) -> FolioError {
        FolioError(
            .externalProgram, "git log printed what Folio cannot read: \"\(field.prefix(80))\"",
            hint: "check that `git --version` is 2.31 or later")
    }
}

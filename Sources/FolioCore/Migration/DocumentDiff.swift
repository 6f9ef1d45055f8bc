/// One document's change as `git diff` prints it, byte for byte.
///
/// A migration's dry run shows what it would do to a store as the diff a reviewer will
/// later see in git: for each changed document, its `diff --git a/P b/P` header,
/// `new file mode` / `deleted file mode` or the rename lines, the `index` line with
/// the blob ids abbreviated, `---` / `+++`, and the hunks of git's default diff
/// (Myers with xdiff's heuristics and the indent heuristic, three lines of context,
/// `\ No newline at end of file` where it applies); content with a NUL byte in its first
/// 8,000 bytes is `Binary files … differ`, as git reports it.
///
/// Put in order with `inGitOrder(_:)`, the diffs of all changed documents are what
/// `git diff` prints in a git-tracked copy of the store after the same change, once new
/// files are known to git (`git add --intent-to-add`; `git diff` leaves untracked files
/// out), and what `git diff --cached` prints after `git add -A`. That holds with git's
/// defaults (no `diff.*`, `color.*`, `core.quotePath` or `core.abbrev` settings, no
/// `.gitattributes` filters), with renames paired as git pairs them (see
/// `init(renaming:to:old:new:abbreviation:)`), and in a repository small enough for
/// 7-digit ids (see `abbreviation(packedObjectCount:)`). Tested against git 2.39.
///
/// ```swift
/// let diff = DocumentDiff(path: "Note/2026/11/22/E621E1F8-C36C-495A-93FC-0C247A3E6E5F.json", old: before, new: after)
/// print(diff.text, terminator: "")
/// ```
///
/// Paths are relative to the store, with `/` between folders, and name regular files
/// (mode 100644), as all of a store's files are.
public struct DocumentDiff: Sendable, Hashable {
    /// What the diff shows happening to the file.
    public enum Change: Sendable, Hashable {
        /// The file is new (`new file mode 100644`).
        case added
        /// The file is gone (`deleted file mode 100644`).
        case deleted
        /// The file is changed in place, or not changed at all (an empty diff).
        case modified
        /// The file moved from `from`, maybe changed; `similarity` is git's similarity index in percent.
        case renamed(from: String, similarity: Int)
    }

    /// The hex digits git shows of each blob id in a small repository (`core.abbrev` unset,
    /// fewer than 2^14 packed objects); see `abbreviation(packedObjectCount:)`.
    public static let defaultAbbreviation = 7

    /// The file's path relative to the store; for a rename, the new path. Git lists files in this order.
    public let path: String
    /// What happened to the file.
    public let change: Change
    /// Exactly what `git diff` prints for the file; empty when the file did not change.
    public let bytes: [UInt8]

    /// The diff as text. Use `bytes` where exactness matters: a document that is not valid
    /// UTF-8 has its invalid bytes replaced here.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Whether the file did not change, so git shows nothing for it.
    public var isEmpty: Bool { bytes.isEmpty }

    /// The diff of one file: `old` is its content before (nil for a new file), `new` after
    /// (nil for a deleted one); neither means nothing to show.
    ///
    /// `abbreviation` is how many hex digits of each blob id the `index` line shows (4 to 40).
    public init(path: String, old: [UInt8]?, new: [UInt8]?, abbreviation: Int = DocumentDiff.defaultAbbreviation) {
        self.path = path
        switch (old, new) {
        case (nil, nil): change = .modified
        case (nil, .some): change = .added
        case (.some, nil): change = .deleted
        case (.some, .some): change = .modified
        }
        bytes =
            old == nil && new == nil
            ? []
            : Self.render(
                oldPath: old == nil ? nil : path, newPath: new == nil ? nil : path, old: old, new: new, similarity: nil,
                abbreviation: abbreviation)
    }

    /// The diff of a file moved from `oldPath` to `newPath` and maybe changed on the way,
    /// shown as git's rename detection shows it (`similarity index`, `rename from`, `rename to`).
    ///
    /// Returns nil when git would not call it a rename: when the two contents are less
    /// than 50% similar by git's measure (or the smaller is less than half the larger), git
    /// shows the old path deleted and the new path added, two diffs made with
    /// `init(path:old:new:abbreviation:)`. With the same path on both sides, this is that
    /// initializer's diff.
    ///
    /// Git decides renames across all the files of a diff: identical contents first, then
    /// a deleted and an added file of the same name (unique among the changed files) at
    /// least 75% similar, then the most similar pairs at 50% or more. This diff is right when git
    /// pairs these two files, as it does for a document that keeps its file name (its UUID)
    /// when moved, unless another added file is more similar to it, or more than
    /// 1,000 × 1,000 pairs are left to compare (`diff.renameLimit`) and git gives up on
    /// inexact renames.
    public init?(
        renaming oldPath: String, to newPath: String, old: [UInt8], new: [UInt8],
        abbreviation: Int = DocumentDiff.defaultAbbreviation
    ) {
        guard oldPath != newPath else {
            let inPlace = DocumentDiff(path: newPath, old: old, new: new, abbreviation: abbreviation)
            (path, change, bytes) = (inPlace.path, inPlace.change, inPlace.bytes)
            return
        }
        let similarity = old == new ? RenameSimilarity.maximumScore : RenameSimilarity(old: old, new: new).score
        guard similarity >= RenameSimilarity.defaultMinimumScore else { return nil }
        let percent = similarity * 100 / RenameSimilarity.maximumScore
        path = newPath
        change = .renamed(from: oldPath, similarity: percent)
        bytes = Self.render(
            oldPath: oldPath, newPath: newPath, old: old, new: new, similarity: percent, abbreviation: abbreviation)
    }

    /// How many hex digits git shows of an id when `core.abbrev` is unset: 7, or more in a
    /// repository whose packs hold 2^14 objects or more (half the bit length of the count,
    /// rounded up). Loose objects are not counted. Git shows more digits still for an id
    /// whose abbreviation another object in the repository shares.
    public static func abbreviation(packedObjectCount: Int) -> Int {
        let bits = packedObjectCount > 0 ? Int.bitWidth - packedObjectCount.leadingZeroBitCount : 1
        return max(defaultAbbreviation, (bits + 1) / 2)
    }

    /// Diffs in the order `git diff` prints them: by path, byte by byte (a rename at its new path).
    public static func inGitOrder(_ diffs: some Sequence<DocumentDiff>) -> [DocumentDiff] {
        diffs.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    }

    /// Renders the header and hunks as git's `builtin_diff` does for a regular file.
    private static func render(
        oldPath: String?, newPath: String?, old: [UInt8]?, new: [UInt8]?, similarity: Int?, abbreviation: Int
    ) -> [UInt8] {
        let nameA = oldPath ?? newPath ?? ""
        let nameB = newPath ?? oldPath ?? ""
        let labelA = old == nil ? "/dev/null" : GitText.quoted(prefix: "a/", nameA)
        let labelB = new == nil ? "/dev/null" : GitText.quoted(prefix: "b/", nameB)
        var header = "diff --git \(GitText.quoted(prefix: "a/", nameA)) \(GitText.quoted(prefix: "b/", nameB))\n"
        // A created, deleted or renamed file shows its header even with no lines to show.
        var mustShowHeader = false
        if old == nil {
            header += "new file mode 100644\n"
            mustShowHeader = true
        } else if new == nil {
            header += "deleted file mode 100644\n"
            mustShowHeader = true
        }
        if let similarity {
            header +=
                "similarity index \(similarity)%\nrename from \(GitText.quoted(nameA))\nrename to \(GitText.quoted(nameB))\n"
            mustShowHeader = true
        }
        let oldID = old.map { GitBlobID(content: $0) } ?? .null
        let newID = new.map { GitBlobID(content: $0) } ?? .null
        if oldID != newID {
            header += "index \(oldID.abbreviated(abbreviation))..\(newID.abbreviated(abbreviation))"
            header += old != nil && new != nil ? " 100644\n" : "\n"
        }

        let oldBytes = old ?? []
        let newBytes = new ?? []
        if GitText.isBinary(oldBytes) || GitText.isBinary(newBytes) {
            if oldBytes == newBytes { return mustShowHeader ? Array(header.utf8) : [] }
            return Array((header + "Binary files \(labelA) and \(labelB) differ\n").utf8)
        }
        let hunks = UnifiedHunks(old: oldBytes, new: newBytes, diff: LineDiff(old: oldBytes, new: newBytes)).render()
        if hunks.isEmpty { return mustShowHeader ? Array(header.utf8) : [] }
        // Git ends a label that holds a space with a tab, so patch tools see where the name ends.
        header += "--- \(labelA)\(labelA.contains(" ") ? "\t" : "")\n"
        header += "+++ \(labelB)\(labelB.contains(" ") ? "\t" : "")\n"
        return Array(header.utf8) + hunks
    }
}

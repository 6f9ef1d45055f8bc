extension MigrationReport {
    /// The migration's changes as `git diff` shows them, one diff per file, in git's order.
    ///
    /// A dry run is reviewed as the diff git will show once the migration is applied: in a
    /// git-tracked store, applying the migration and then running
    ///
    /// ```sh
    /// git add --intent-to-add --ignore-removal . && git diff
    /// ```
    ///
    /// at the repository's top prints exactly `unifiedDiff()`, and so does
    /// `git add --all && git diff --cached`. `git diff` leaves untracked files out, so new
    /// files must be announced with `--intent-to-add`; `--ignore-removal` keeps `git add`
    /// from staging the deleted files, which `git diff` would then not show. Git (2.39 and
    /// later) then pairs a moved document with its old path and prints a rename
    /// (`similarity index`, `rename from`, `rename to`), as here. Moved documents are paired
    /// as git's rename detection pairs them (`GitRenameDetection`), so one git finds too
    /// different is shown as a deletion and an addition, as git shows it.
    ///
    /// `pathPrefix` is the store's folder relative to the repository's top (such as
    /// `"Data/TimerApp/"`, with its final `/`); empty for a store at the top. `abbreviation`
    /// is how many hex digits of each blob id git shows (see `DocumentDiff.abbreviation(packedObjectCount:)`).
    /// Git's defaults are assumed, as `DocumentDiff` describes.
    public func diffs(pathPrefix: String = "", abbreviation: Int = DocumentDiff.defaultAbbreviation) -> [DocumentDiff] {
        var diffs: [DocumentDiff] = []
        var sources: [GitRenameDetection.File] = []
        var destinations: [GitRenameDetection.File] = []
        for file in files {
            switch (file.old, file.new) {
            case (let old?, let new?) where file.oldPath != file.path:
                sources.append(.init(path: pathPrefix + file.oldPath, bytes: old))
                destinations.append(.init(path: pathPrefix + file.path, bytes: new))
            case (let old?, nil):
                sources.append(.init(path: pathPrefix + file.oldPath, bytes: old))
            case (nil, let new?):
                destinations.append(.init(path: pathPrefix + file.path, bytes: new))
            case (let old, let new):
                diffs.append(DocumentDiff(path: pathPrefix + file.path, old: old, new: new, abbreviation: abbreviation))
            }
        }
        // Git pairs files in its own order, by path.
        sources.sort { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        destinations.sort { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        let renames = GitRenameDetection(sources: sources, destinations: destinations).pairs
        var renamedSources = Set<Int>()
        for (index, destination) in destinations.enumerated() {
            if let pair = renames[index],
                let rename = DocumentDiff(
                    renaming: sources[pair.source].path, to: destination.path, old: sources[pair.source].bytes,
                    new: destination.bytes,
                    abbreviation: abbreviation)
            {
                diffs.append(rename)
                renamedSources.insert(pair.source)
            } else {
                diffs.append(
                    DocumentDiff(path: destination.path, old: nil, new: destination.bytes, abbreviation: abbreviation))
            }
        }
        for (index, source) in sources.enumerated() where !renamedSources.contains(index) {
            diffs.append(DocumentDiff(path: source.path, old: source.bytes, new: nil, abbreviation: abbreviation))
        }
        return DocumentDiff.inGitOrder(diffs.filter { !$0.isEmpty })
    }

    /// The whole migration as one unified diff: every file's diff from `diffs(pathPrefix:abbreviation:)`,
    /// in order; byte for byte what `git diff` prints after the migration is applied.
    ///
    /// The bytes are exact where a document is not valid UTF-8; print them with
    /// `FileHandle.standardOutput.write(Data(report.unifiedDiff()))`.
    public func unifiedDiff(pathPrefix: String = "", abbreviation: Int = DocumentDiff.defaultAbbreviation) -> [UInt8] {
        diffs(pathPrefix: pathPrefix, abbreviation: abbreviation).flatMap(\.bytes)
    }
}

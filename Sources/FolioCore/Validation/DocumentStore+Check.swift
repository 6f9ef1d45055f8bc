import FolioJSON
import Foundation

extension DocumentStore {
    /// Every document checked against the manifest's schema, the way `folio check` reports it.
    ///
    /// Finds files that do not parse (with line and column), documents whose metadata,
    /// types or required properties break the schema, duplicates of unique values,
    /// relationships that point at nothing or that only one side records, and files in a
    /// folder their partition day does not name. Keys the schema does not know are notes:
    /// Folio keeps them, but they may be typos. Soft-deleted documents are checked too;
    /// they take no part in uniqueness, as the models do not see them. In `.folio/`, links
    /// and a transaction left unfinished are errors, and entries Folio did not make are notes.
    ///
    /// `progress` hears how many documents are checked of about how many, for a progress bar.
    public func check(progress: (_ checked: Int, _ total: Int) -> Void = { _, _ in }) -> [StoreFinding] {
        checkReport(progress: progress).findings
    }

    /// What is wrong with the manifest's schema, or worth a word (see `SchemaCheck`): the
    /// findings `check` starts with, and `folio schema` shows, at their lines in `folio.json`.
    package func schemaFindings() -> [StoreFinding] {
        // The manifest's text, read again only for the line and column of each finding.
        let text = (try? folder.readFile(StoreManifest.fileName, limit: JSONReader.absoluteMaximumSize).bytes) ?? []
        return SchemaCheck.findings(
            in: manifest.schema, text: text, file: StoreManifest.fileName, at: JSONPath([.key("schema")]))
    }

    /// `check`'s findings, in file order, and how many files it looked at: the documents
    /// and the files that could not be used (see `check`).
    ///
    /// A folder at a time (see `StoreCheck`): when `servesOneCommand` is on, no folder is
    /// kept loaded (see `forEachDocument`), so a check costs one folder's walk and what the
    /// relationships need to know, not the store.
    package func checkReport(progress: (_ checked: Int, _ total: Int) -> Void = { _, _ in }) -> (
        findings: [StoreFinding], files: Int
    ) {
        var check = StoreCheck(manifest)
        check.findings += localStateFindings()
        check.findings += schemaFindings()
        var names: [String] = []
        do {
            names = try entityFolderNames().sorted()
        } catch {
            check.report(StoreIssue(path: "", error: error))
        }
        // A progress bar's total, from the catalog or the cache files: not a walk more.
        let total = names.reduce(0) { total, name in
            let loaded = memory.loadedCount(of: name)
            return total + (loaded ?? CacheIndex.open(folder: name, from: folder)?.count ?? 0)
        }
        for (name, members) in check.relatedFolders.sorted(by: { $0.key < $1.key }) where names.contains(name) {
            _ = forEachDocument(
                inFolder: name, members: (members.union([ReservedKey.deleted])).sorted(),
                startingOver: { check.forgetRelated(inFolder: name) }
            ) { path, content in check.remember(content, at: path) }
        }
        for name in names {
            check.begin(folder: name)
            let issues = forEachDocument(inFolder: name, startingOver: { check.startFolderOver() }) { path, content in
                check.check(content, at: path)
                if check.checked % 256 == 0 { progress(check.checked, max(total, check.checked)) }
            }
            if check.needsSecondPass {
                _ = forEachDocument(inFolder: name, startingOver: { check.startSecondPassOver() }) { path, content in
                    check.addUniqueCandidate(content, at: path)
                }
            }
            check.finish(issues: issues)
        }
        progress(check.checked, check.checked)
        check.placeFindings(reading: documentTexts(at:))
        let findings = check.findings.sorted {
            ($0.path, $0.line ?? 0, $0.message) < ($1.path, $1.line ?? 0, $1.message)
        }
        return (findings, check.checked + check.issues)
    }
}

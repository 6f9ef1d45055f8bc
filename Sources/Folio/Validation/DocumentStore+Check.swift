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
    /// `progress` hears how many documents are checked of how many, for a progress bar.
    public func check(progress: (_ checked: Int, _ total: Int) -> Void = { _, _ in }) -> [StoreFinding] {
        var audit = StoreAudit(manifest)
        for issue in issues {
            let location = issue.error.location
            audit.findings.append(
                StoreFinding(
                    .error, path: issue.path, line: location?.line, column: location?.column,
                    message: issue.error.reason))
        }
        audit.findings += localStateFindings()
        // The manifest's text, read again only for the line and column of each finding.
        let text = (try? folder.readFile(StoreManifest.fileName, limit: JSONReader.absoluteMaximumSize).bytes) ?? []
        audit.findings += SchemaCheck.findings(
            in: manifest.schema, text: text, file: StoreManifest.fileName, at: JSONPath([.key("schema")]))
        var documentsByEntity: [String: [StoredDocument]] = [:]
        for entity in documentCounts.keys.sorted() {
            documentsByEntity[entity] = documents(entity: entity)
        }
        audit.run(documentsByEntity, root: folder, progress: progress)
        return audit.findings.sorted { ($0.path, $0.line ?? 0, $0.message) < ($1.path, $1.line ?? 0, $1.message) }
    }
}

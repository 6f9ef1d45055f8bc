import Foundation
import FolioJSON

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
            audit.findings.append(StoreFinding(.error, path: issue.path, line: location?.line, column: location?.column, message: issue.error.reason))
        }
        audit.findings += localStateFindings()
        for entity in manifest.entityNames where !DocumentPath.isIdentifier(entity) {
            audit.findings.append(StoreFinding(.error, path: StoreManifest.fileName, message: "the schema names an entity \"\(entity)\", which is not an identifier (letters, digits and _, not starting with a digit), so it can have no folder; rename it"))
        }
        audit.findings += manifest.schemaFindings
        var documentsByEntity: [String: [StoredDocument]] = [:]
        for entity in documentCounts.keys.sorted() {
            documentsByEntity[entity] = documents(entity: entity)
        }
        audit.run(documentsByEntity, root: folder, progress: progress)
        return audit.findings.sorted { ($0.path, $0.line ?? 0, $0.message) < ($1.path, $1.line ?? 0, $1.message) }
    }
}

extension StoreManifest {
    /// What in the schema's description of properties Folio cannot use: cases that are
    /// not a list, counts that are not whole numbers. Such an entry is ignored, so values are
    /// not checked against it.
    var schemaFindings: [StoreFinding] {
        var findings: [StoreFinding] = []
        let entities = schema["entities"]?.objectValue ?? [:]
        for entity in entityNames {
            if let superentity = entities[entity]?["superentity"] {
                var seen: Set<String> = [entity]
                var next = superentity.stringValue
                while let name = next, entities[name] != nil, seen.insert(name).inserted { next = entities[name]?["superentity"]?.stringValue }
                if superentity.stringValue.map({ entities[$0] == nil }) ?? true {
                    findings.append(StoreFinding(.error, path: Self.fileName, message: "the schema says \(entity) inherits from \(superentity), which is not one of its entities; fix \"superentity\", or let the app's next open write it again"))
                } else if next != nil {
                    findings.append(StoreFinding(.error, path: Self.fileName, message: "the schema's \"superentity\" entries lead from \(entity) back to itself; a class hierarchy has a root, so fix them, or let the app's next open write them again"))
                }
            }
            for property in schema["entities"]?[entity]?["properties"]?.arrayValue ?? [] {
                let name = "\(entity).\(property["name"]?.stringValue ?? "?")"
                if let cases = property["cases"], cases.arrayValue == nil {
                    findings.append(StoreFinding(.error, path: Self.fileName, message: "the schema's \"cases\" of \(name) is \(cases), not a list of the enum's raw values; fix it, or let the app's next open write it again"))
                }
                for key in ["minimumModelCount", "maximumModelCount"] {
                    guard let count = property[key] else { continue }
                    if case .integer(let whole) = count, whole >= 0 { continue }
                    findings.append(StoreFinding(.error, path: Self.fileName, message: "the schema's \"\(key)\" of \(name) is \(count), not a count of models; fix it, or let the app's next open write it again"))
                }
            }
        }
        return findings
    }
}

import FolioJSON
import Foundation

/// A check of every document of a store, one folder at a time, each document handed over
/// once and none kept: what `DocumentStore.check` runs.
///
/// What a document's checks ask of other documents (whether a relationship's target is
/// there, whether its inverse points back, how many live models a to-many holds) is
/// gathered first, from the folders `relatedFolders` names and only the members it names
/// (see `RelationshipTargets`); then each folder is checked, its uniqueness constraints across
/// its own documents (see `UniqueValues`, which may ask for a second pass).
struct StoreCheck {
    let audit: StoreAudit
    var findings: [StoreFinding] = []
    /// The findings whose lines are found once the check is over (`placeFindings`).
    private var lines = FindingLines()
    /// The documents checked so far, and the issues reported (each an unreadable file).
    private(set) var checked = 0
    private(set) var issues = 0
    /// The folders other documents' checks read, with the members they read of them.
    let relatedFolders: [String: Set<String>]
    private var related = RelationshipTargets()

    /// The folder being checked: its entity (`nil` when the schema has none of that name),
    /// where its findings start, its unique values and its to-manys' counts by owner.
    private var folder: (name: String, entity: QuerySchema.Entity?, firstFinding: Int, checked: Int)?
    private var unique = UniqueValues([])
    private var pointingBack: [String: [JSONValue: Int]] = [:]

    init(_ manifest: StoreManifest) {
        audit = StoreAudit(manifest)
        var needed: [String: Set<String>] = [:]
        let schema = audit.schema
        for entity in schema.entities.values {
            for (name, property) in entity.properties {
                guard case .relationship(let destination, let isToMany, let storedInverse) = property else { continue }
                let counted = isToMany && entity.modelCounts[name] != nil
                guard storedInverse == nil || counted else { continue }
                var members: Set<String> = []
                // An inverse the target keeps is read to see that it points back.
                if storedInverse == nil, let inverse = audit.inverse(of: name, in: entity.name),
                    case .relationship(_, _, nil)? = schema.entities[destination]?.property(named: inverse)
                {
                    members.insert(inverse)
                }
                if counted, let storedInverse { members.insert(storedInverse) }
                needed[schema.folder(of: destination).folder, default: []].formUnion(members)
            }
        }
        relatedFolders = needed
    }

    /// Takes in one document of a folder `relatedFolders` names.
    mutating func remember(_ content: JSONObject, at path: DocumentPath) {
        related.add(content, at: path, keeping: relatedFolders[path.entity] ?? [])
    }

    /// Forgets what was gathered of a folder, whose documents are handed over again.
    mutating func forgetRelated(inFolder name: String) { related.forget(folder: name) }

    /// Starts checking a folder's documents.
    mutating func begin(folder name: String) {
        let entity = audit.schema.entities[name]
        folder = (name, entity, findings.count, checked)
        unique = UniqueValues(entity.map(audit.uniquenessConstraints) ?? [])
        pointingBack = [:]
        guard let entity else { return }
        for (relationship, _) in entity.modelCounts {
            guard case .relationship(let destination, true, let storedInverse?)? = entity.property(named: relationship)
            else { continue }
            pointingBack[relationship] = related.counts(
                inFolder: audit.schema.folder(of: destination).folder, of: storedInverse)
        }
    }

    /// Drops what the folder's check found so far, whose documents are handed over again.
    mutating func startFolderOver() {
        guard let folder else { return }
        findings.removeSubrange(folder.firstFinding...)
        checked = folder.checked
        unique = UniqueValues(unique.constraints)
    }

    /// Checks one document of the folder begun.
    mutating func check(_ content: JSONObject, at path: DocumentPath) {
        guard let folder else { return }
        checked += 1
        let file = path.relativePath
        guard let entity = folder.entity else {
            findings.append(
                StoreFinding(
                    .error, path: file,
                    message:
                        "entity \(folder.name) is not in the manifest's schema; add it to the models, or move the file out of the store"
                ))
            return
        }
        // A subclass's document, in its hierarchy's folder, is checked against its own entity.
        let own = audit.schema.entity(of: content, inFolder: folder.name) ?? entity
        let schema = audit.schema
        let found = audit.problems(of: content, at: path, entity: own) { [related] destination, id in
            related.document(inFolder: schema.folder(of: destination).folder, id: id)
        }
        for (key, severity, message) in found {
            append(
                StoreFinding(severity, path: file, column: key == nil ? nil : 3, message: message),
                lineOf: key.map { [$0] } ?? [])
        }
        for conflict in MergeConflict.recorded(in: content) {
            append(
                StoreFinding(.error, path: file, column: 3, message: StoreAudit.message(for: conflict, path: file)),
                lineOf: [conflict.property, MergeConflict.key])
        }
        guard content[ReservedKey.deleted] == nil else { return }
        unique.add(content, at: path)
        modelCounts(of: content, at: path, entity: entity)
    }

    /// Sets the line of each finding that points at a member, from the documents `read`
    /// gives by path: call once every folder is checked.
    mutating func placeFindings(reading read: ([String]) -> [String: [UInt8]]) {
        lines.resolve(&findings, read: read)
    }

    /// Adds a finding, its line to be that of the first of `keys` its document has.
    private mutating func append(_ finding: StoreFinding, lineOf keys: [String]) {
        if !keys.isEmpty { lines.locate(findings.count, keys: keys, in: finding.path) }
        findings.append(finding)
    }

    /// Whether the folder's documents must be handed over again to `addUniqueCandidate`
    /// (see `UniqueValues`).
    var needsSecondPass: Bool { unique.needsSecondPass }

    /// Takes in a document of the folder's second pass.
    mutating func addUniqueCandidate(_ content: JSONObject, at path: DocumentPath) {
        guard content[ReservedKey.deleted] == nil else { return }
        unique.addCandidate(content, at: path)
    }

    /// Forgets what the second pass took in, whose documents are handed over again.
    mutating func startSecondPassOver() { unique.startSecondPassOver() }

    /// Ends the folder's check: its issues, and the documents that share a unique value.
    mutating func finish(issues folderIssues: [StoreIssue]) {
        for issue in folderIssues { report(issue) }
        for duplicate in unique.duplicates {
            let path = duplicate.path.relativePath
            let constraint = duplicate.constraint
            let shown = StoreAudit.shown(duplicate.key, of: constraint)
            append(
                StoreFinding(
                    .error, path: path, column: 3,
                    message:
                        "\(shown) is also held by \(duplicate.heldBy.relativePath), but it must be unique; change or delete one of them"
                ), lineOf: [constraint[0]])
        }
        folder = nil
    }

    /// Reports a file that could not be used, at its line and column when it has them (or
    /// the store's folder, when it could not be listed).
    mutating func report(_ issue: StoreIssue) {
        let location = issue.error.location
        findings.append(
            StoreFinding(
                .error, path: issue.path, line: location?.line, column: location?.column, message: issue.error.reason))
        issues += 1
    }

    /// A document whose to-many relationship holds fewer or more models than its
    /// `minimumModelCount` and `maximumModelCount` allow, counting what the models would
    /// see: related documents the store holds and has not soft-deleted.
    private mutating func modelCounts(
        of content: JSONObject, at path: DocumentPath, entity: QuerySchema.Entity
    ) {
        for (name, limits) in entity.modelCounts.sorted(by: { $0.key < $1.key }) {
            guard case .relationship(let destination, true, let storedInverse)? = entity.property(named: name) else {
                continue
            }
            let folder = audit.schema.folder(of: destination).folder
            // A to-many the documents do not keep is the set of related documents whose inverse names the owner.
            let count =
                if storedInverse != nil {
                    pointingBack[name]?[.string(path.id.uuidString)] ?? 0
                } else {
                    (content[name]?.arrayValue ?? []).filter {
                        $0.stringValue.flatMap(UUID.init(uuidString:)).map {
                            related.isLive(inFolder: folder, id: $0)
                        } == true
                    }.count
                }
            guard count < limits.minimum || (limits.maximum > 0 && count > limits.maximum) else { continue }
            let allowed = limits.maximum > 0 ? "\(limits.minimum) to \(limits.maximum)" : "at least \(limits.minimum)"
            let file = path.relativePath
            append(
                StoreFinding(
                    .error, path: file, column: storedInverse == nil ? 3 : nil,
                    message:
                        "\"\(name)\" holds \(count) \(destination) document\(count == 1 ? "" : "s"), but its @Relationship allows \(allowed) (minimumModelCount, maximumModelCount); add or remove \(destination) documents, or the app's next save of it fails"
                ), lineOf: storedInverse == nil ? [name] : [])
        }
    }
}

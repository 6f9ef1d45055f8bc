import FolioJSON
import Foundation

extension DocumentStore {
    /// Migrates every document older than the last step's version through the steps
    /// from its own `"$version"` on, and the manifest's schema with them, in one
    /// transaction; or, with `dryRun`, does it in memory and writes nothing.
    ///
    /// A store whose manifest is at a newer version than the plan reaches is refused, and
    /// a document written by a newer schema than the plan reaches fails (nothing is ever
    /// downgraded), as does one an operation cannot convert; if any document fails,
    /// nothing is written and the report lists every failure. Documents the steps leave
    /// as they were keep their bytes, so the diff shows only what changed. `progress`
    /// hears how many documents have gone through the steps, of how many.
    ///
    /// - Throws: `.migration` for no steps, a step that does not go to a later version, a store
    ///   newer than the last step, or a step that would take over what the schema has;
    ///   `.invalidDocument` when a document cannot be migrated (unless `dryRun`, which reports it);
    ///   what `commit` throws (`.conflict`, `.fileSystem`, `.unsafePath`, `.locked`,
    ///   `.unfinishedCommit`), and `.fileSystem`, `.unsafePath` or `.invalidStore` when reading.
    @discardableResult
    public func migrate(_ steps: [MigrationStep], dryRun: Bool = false, progress: ReadProgress? = nil)
        throws(FolioError) -> MigrationReport
    {
        let steps = steps.sorted { $0.fromVersion < $1.fromVersion }
        guard let target = steps.last?.toVersion else { throw .migration("the migration has no steps") }
        for step in steps where step.toVersion <= step.fromVersion {
            throw .migration(
                "a migration step goes from \(step.fromVersion) to \(step.toVersion); each must go to a later version")
        }
        let manifest = memory.manifest
        let calendar = manifest.calendar
        let storeVersion = Schema.Version(manifest.schemaVersion) ?? Schema.Version(0, 0, 0)
        guard storeVersion <= target else {
            throw .migration(
                "the store is at schema \(storeVersion), newer than \(target), where this migration ends; a migration never lowers a store's version, so nothing was written (run the plan that ends at \(storeVersion) or later)"
            )
        }
        // Every stage the manifest goes through is checked against the schema before it, before
        // anything is read or written (a dry run too): none may take over what is there.
        var schema = manifest.schema
        for step in steps where step.toVersion > storeVersion {
            if let problem = step.problem(applyingTo: schema) { throw .migration(problem + "; nothing was written") }
            schema = step.schema(after: schema)
        }
        var report = MigrationReport(fromVersion: manifest.schemaVersion, toVersion: target)
        var changes: [DocumentChange] = []
        // `entity` is the document's own (its `"$entity"`), which a subclass's documents
        // share a folder with other entities of their hierarchy for.
        var rewrites: [(version: DocumentVersion, entity: String, content: JSONObject?)] = []

        try load(nil)
        withEvaluation { evaluation in
            let paths = evaluation.documents.catalog.paths.sorted()
            for (done, path) in paths.enumerated() {
                if let progress, done % 256 == 0 { progress(done, paths.count) }
                guard let entry = evaluation.documents.catalog.entry(at: path),
                    let content = evaluation.documents.catalog.content(at: path)
                else {
                    continue
                }
                // A step's operations change the documents of the entity they name, a subclass's
                // by its own name: its documents are in its hierarchy's root folder.
                let own = evaluation.documents.schema.entity(of: content, inFolder: path.entity)?.name ?? path.entity
                let written =
                    content[ReservedKey.version]?.stringValue.flatMap(Schema.Version.init) ?? storeVersion
                if written > target {
                    report.failures.append(
                        .init(
                            path: path.relativePath,
                            reason:
                                "written by schema version \(written), newer than \(target), the last version of this migration; Folio never downgrades a document"
                        ))
                    report.entities[own, default: .init()].failed += 1
                    continue
                }
                let pending = steps.filter { $0.toVersion > written }
                let outcome = DocumentRewrite.apply(pending, to: content, entity: own) { expression, entity, content in
                    evaluation.value(
                        of: expression,
                        on: PersistentIdentifier(entityName: entity == own ? path.entity : entity, id: path.id),
                        content: content)
                }
                switch outcome {
                case .unchanged:
                    report.entities[own, default: .init()].unchanged += 1
                case .changed(let entity, let content):
                    report.entities[own, default: .init()].changed += 1
                    rewrites.append((entry.version, entity, content))
                case .deleted:
                    report.entities[own, default: .init()].deleted += 1
                    rewrites.append((entry.version, own, nil))
                case .failed(let reason):
                    report.entities[own, default: .init()].failed += 1
                    report.failures.append(.init(path: path.relativePath, reason: reason))
                }
            }
        }

        var newManifest = manifest
        newManifest.schemaVersion = target.description
        // The manifest's schema already has the steps up to its own version.
        newManifest.schema = steps.filter { $0.toVersion > storeVersion }.reduce(manifest.schema) {
            $1.schema(after: $0)
        }
        let manifestChange = try manifestChange(from: manifest, to: newManifest)
        let newSchema = QuerySchema(newManifest.storedSchema)
        if manifestChange.old != manifestChange.new { report.files.append(manifestChange) }

        for rewrite in rewrites {
            let old = rewrite.version.path
            let oldBytes = try folder.readFile(old.relativePath, limit: JSONReader.absoluteMaximumSize).bytes
            guard var content = rewrite.content else {
                changes.append(.delete(rewrite.version))
                report.files.append(.init(path: old.relativePath, oldPath: old.relativePath, old: oldBytes, new: nil))
                // Its blobs go with it.
                for property in blobProperties(of: old) {
                    guard let bytes = try blob(of: old, property: property) else { continue }
                    let path = try old.blob(property).relativePath
                    report.files.append(.init(path: path, oldPath: path, old: bytes, new: nil))
                }
                continue
            }
            // The metadata leads, as the model layer writes it.
            let version = content.removeValue(forKey: ReservedKey.version) ?? .string(target.description)
            content.insert(.string(rewrite.entity), forKey: ReservedKey.entity, at: 0)
            content.insert(version, forKey: ReservedKey.version, at: 1)
            let folder = newSchema.entities[rewrite.entity]?.storageName ?? rewrite.entity
            let newBytes: [UInt8]
            do { newBytes = try JSONWriter().write(.object(content)) } catch {
                throw .invalidDocument(
                    path: old.relativePath, reason: "the migrated document cannot be written: \(error.message)")
            }
            if folder == old.entity {
                changes.append(
                    .put(Document(entity: old.entity, id: old.id, content: content), basedOn: rewrite.version))
                report.files.append(
                    .init(path: old.relativePath, oldPath: old.relativePath, old: oldBytes, new: newBytes))
            } else {
                // Renamed: the document moves to the new entity's folder, same day, blobs and all.
                var blobs: [String: [UInt8]?] = [:]
                for property in blobProperties(of: old) { blobs[property] = try blob(of: old, property: property) }
                let day =
                    calendar.date(
                        from: DateComponents(year: old.day.year, month: old.day.month, day: old.day.day, hour: 12))
                    ?? Date()
                changes.append(
                    .put(
                        Document(entity: folder, id: old.id, partitionDate: day, content: content, blobs: blobs),
                        basedOn: nil))
                changes.append(.delete(rewrite.version))
                let moved = try DocumentPath(entity: folder, day: old.day, id: old.id)
                report.files.append(
                    .init(path: moved.relativePath, oldPath: old.relativePath, old: oldBytes, new: newBytes))
                for case (let property, let bytes?) in blobs {
                    report.files.append(
                        .init(
                            path: try moved.blob(property).relativePath, oldPath: try old.blob(property).relativePath,
                            old: bytes, new: bytes))
                }
            }
        }
        report.files.sort {
            ($0.path == StoreManifest.fileName ? "" : $0.path) < ($1.path == StoreManifest.fileName ? "" : $1.path)
        }
        report.failures.sort { $0.path < $1.path }
        guard !dryRun else { return report }
        if let first = report.failures.first {
            let others = report.failures.count - 1
            throw .invalidDocument(
                path: first.path,
                reason: "cannot be migrated: \(first.reason)"
                    + (others > 0 ? " (and \(others) more; a dry run lists them all)" : "")
                    + "; nothing was written")
        }
        try commit(changes, manifest: newManifest)
        report.applied = true
        return report
    }

    private func manifestChange(from old: StoreManifest, to new: StoreManifest) throws(FolioError)
        -> MigrationReport.FileChange
    {
        let oldBytes = try folder.readFile(StoreManifest.fileName, limit: JSONReader.absoluteMaximumSize).bytes
        do {
            return .init(
                path: StoreManifest.fileName, oldPath: StoreManifest.fileName, old: oldBytes,
                new: try JSONWriter().write(new.json))
        } catch {
            throw .invalidDocument(
                path: StoreManifest.fileName, reason: "the new manifest cannot be written: \(error.message)")
        }
    }
}

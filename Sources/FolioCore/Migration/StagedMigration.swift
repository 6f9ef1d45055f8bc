import FolioJSON
import Foundation

/// A `SchemaMigrationPlan` with custom stages, run as one transaction on the real store.
///
/// A custom stage's closures work through a `ModelContext` and save as apps do, and each
/// stage must see what the one before it wrote. So the plan runs on a scratch copy of the
/// store's documents (in the temporary folder, without syncs): `willMigrate` on a context
/// over the old models, the stage's change to the documents (inferred as for a lightweight
/// stage, or read from a `.file` stage's file), then `didMigrate` on a context over the new
/// models. What the copy ends up holding is then written to the real store in one commit,
/// with the manifest; a closure that throws, or a crash at any point, leaves the real
/// store as it was.
///
/// `.externalStorage` blobs are copied too, file by file, so closures read and set them
/// as apps do; the commit writes the blobs the copy ended up with different bytes for,
/// and deletes those it no longer has.
struct StagedMigration {
    let store: DocumentStore
    let stages: [MigrationStage]

    func run() throws(FolioError) {
        // The working copy holds the user's documents: a private folder, not one the shared temporary folder's other users can read.
        let folder = try ScratchFolder(purpose: "migration")
        defer { folder.remove() }
        let scratch = folder.url.appending(path: "store", directoryHint: .isDirectory)
        let (copy, copiedBlobs) = try makeCopy(at: scratch.path(percentEncoded: false))
        for stage in stages {
            let (from, to) = stage.versions
            if case .custom(_, _, let willMigrate?, _) = stage {
                try run(willMigrate, models: from, on: scratch, stage: "willMigrate")
            }
            try copy.refresh()
            try copy.migrate([try stage.step(from: copy.manifest.schema, timeZone: copy.manifest.timeZone)])
            if case .custom(_, _, _, let didMigrate?) = stage {
                try run(didMigrate, models: to, on: scratch, stage: "didMigrate")
            }
        }
        try copy.refresh()
        try store.commit(try changes(toMatch: copy, copiedBlobs: copiedBlobs), manifest: mergedManifest(copy.manifest))
    }

    /// A store in `root` holding the real store's documents and blobs at their paths, and
    /// its manifest; with the stamps the blobs' copies had then.
    private func makeCopy(at root: String) throws(FolioError) -> (DocumentStore, [DocumentPath: FileStamp]) {
        let copy = try DocumentStore.create(at: root, manifest: store.manifest, durability: .none)
        let calendar = store.manifest.calendar
        var puts: [DocumentChange] = []
        for entity in store.documentCounts.keys.sorted() {
            for stored in store.documents(entity: entity) {
                puts.append(
                    .put(
                        Document(
                            entity: entity, id: stored.id, partitionDate: stored.path.day.noon(in: calendar),
                            content: stored.content), basedOn: nil))
            }
        }
        try copy.commit(puts)
        // One file at a time, so a store of photos is never all in memory at once.
        for blob in store.blobStamps.keys.sorted() {
            let bytes = try store.folder.readFile(blob.relativePath, limit: JSONReader.absoluteMaximumSize).bytes
            try copy.folder.makeFolders(blob.folder).createFile(blob.fileName, bytes: bytes, sync: false)
        }
        try copy.refresh()
        return (copy, copy.blobStamps)
    }

    /// Runs one closure on a context over a version's models in the copy, saving what it
    /// left unsaved; its error, whatever it is, fails the migration with the stage named.
    private func run(
        _ closure: (ModelContext) throws -> Void, models version: any VersionedSchema.Type, on scratch: URL,
        stage: String
    ) throws(FolioError) {
        let container = try ModelContainer(
            for: version.schema, configurations: [ModelConfiguration(url: scratch, durability: .none)])
        let context = ModelContext(container)
        do {
            try closure(context)
            if context.hasChanges { try context.save() }
        } catch let error as FolioError {
            throw error
        } catch {
            throw .migration(
                "the custom migration stage's \(stage) to \(version.versionIdentifier) failed: \(error); the store is unchanged"
            )
        }
    }

    /// The puts and deletes that make the real store's documents those of the copy:
    /// unchanged documents are left alone, moved ones written at their new path.
    private func changes(toMatch copy: DocumentStore, copiedBlobs: [DocumentPath: FileStamp]) throws(FolioError)
        -> [DocumentChange]
    {
        let calendar = copy.manifest.calendar
        var changes: [DocumentChange] = []
        var kept = Set<PersistentIdentifier>()
        // Blobs whose copies are still the files made from them: unchanged without reading either.
        let untouched = Set(copy.blobStamps.filter { copiedBlobs[$0.key] == $0.value }.keys)
        for entity in copy.documentCounts.keys.sorted() {
            for migrated in copy.documents(entity: entity) {
                let identity = PersistentIdentifier(entityName: entity, id: migrated.id)
                kept.insert(identity)
                let original = store.document(entity: entity, id: migrated.id)
                let blobs = try changedBlobs(from: original, to: migrated, in: copy, untouched: untouched)
                if let original, original.path == migrated.path, original.content == migrated.content, blobs.isEmpty {
                    continue
                }
                let document = Document(
                    entity: entity, id: migrated.id, partitionDate: migrated.path.day.noon(in: calendar),
                    content: migrated.content, blobs: blobs)
                changes.append(.put(document, basedOn: original?.version))
            }
        }
        for entity in store.documentCounts.keys.sorted() {
            for original in store.documents(entity: entity)
            where !kept.contains(PersistentIdentifier(entityName: entity, id: original.id)) {
                changes.append(.delete(original.version))
            }
        }
        return changes
    }

    /// The blobs whose bytes in the copy differ from the real store's, with their new
    /// bytes (`nil`: deleted). Blobs left as they were are not mentioned: a document that
    /// moved carries them.
    private func changedBlobs(
        from original: StoredDocument?, to migrated: StoredDocument, in copy: DocumentStore,
        untouched: Set<DocumentPath>
    ) throws(FolioError) -> [String: [UInt8]?] {
        var properties = Set(copy.blobProperties(of: migrated.path))
        if let original { properties.formUnion(store.blobProperties(of: original.path)) }
        var changed: [String: [UInt8]?] = [:]
        for property in properties {
            if original?.path == migrated.path, untouched.contains(try migrated.path.blob(property)) { continue }
            let bytes = try copy.blob(of: migrated.path, property: property)
            var before: [UInt8]?
            if let original { before = try store.blob(of: original.path, property: property) }
            if bytes != before { changed[property] = .some(bytes) }
        }
        return changed
    }

    /// The real manifest with the copy's schema and version, everything else kept.
    private func mergedManifest(_ migrated: StoreManifest) -> StoreManifest {
        var manifest = store.manifest
        manifest.schema = migrated.schema
        manifest.schemaVersion = migrated.schemaVersion
        return manifest
    }
}

extension Day {
    /// Noon of the day in a calendar: a moment that files a document under this day.
    func noon(in calendar: Calendar) -> Date? {
        calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 12))
    }
}

// StoreMemory: the manifest, the counters and the catalog's documents, read.

import FolioJSON
import Foundation

extension StoreMemory {
    /// The manifest as of the last open, refresh or commit.
    var manifest: StoreManifest { locked { $0.manifest } }

    /// The manifest's schema as queries read it.
    var schema: QuerySchema { locked { $0.querySchema } }

    /// The schema with the manifest it was read from, read together.
    var schemaAndManifest: (schema: QuerySchema, manifest: StoreManifest) { locked { ($0.querySchema, $0.manifest) } }

    /// The store's counters.
    var statistics: StoreStatistics { locked { $0.statistics } }

    /// Changes the store's counters.
    func count(_ change: (inout StoreStatistics) -> Void) {
        locked { change(&$0.statistics) }
    }

    /// Every file the loaded folders could not use, and every folder that could not be loaded, by path.
    var issues: [StoreIssue] {
        locked { ($0.catalog.issues + $0.folders.failures).sorted { $0.path < $1.path } }
    }

    /// The issues of the documents of the folder `entity` is kept in: files named as documents
    /// are that could not be read, and the folder itself when it could not be loaded; `nil`
    /// when the folder is not loaded (none, when an answer from its cache file found it clean),
    /// unless asked `evenUnloaded`, as after a load that failed.
    func unreadableDocuments(of entity: String, evenUnloaded: Bool = false) -> (folder: String, issues: [StoreIssue]?) {
        locked { state in
            let name = state.querySchema.folder(of: entity).folder
            guard evenUnloaded || state.folders.isLoaded(name) else {
                // An answer from the cache file found the folder clean; loading it to say so
                // again would cost what that answer saved.
                return (name, state.folders.answeredFromCacheUnloaded(name) ? [] : nil)
            }
            // Every fetch asks: a store without issues answers without gathering them.
            if !state.catalog.hasIssues, !state.folders.hasFailures { return (name, []) }
            let unreadable = state.catalog.issues.filter {
                $0.path.hasPrefix(name + "/") && $0.path.hasSuffix(".json")
            }
            return (name, state.folders.failure(of: name).map { [$0] + unreadable } ?? unreadable)
        }
    }

    /// A document by entity and identity, and the folder it is kept in; one of another entity
    /// of the hierarchy sharing the folder is none. `isLoaded` is `false` when the folder is
    /// not loaded, and the answer is then no answer.
    func document(entity: String, id: UUID) -> (folder: String, isLoaded: Bool, document: StoredDocument?) {
        locked { state in
            let (folder, kinds) = state.querySchema.folder(of: entity)
            guard state.folders.isLoaded(folder) else { return (folder, false, nil) }
            guard let path = state.catalog.path(of: .init(entityName: folder, id: id)),
                let stored = Self.stored(at: path, in: &state.catalog)
            else { return (folder, true, nil) }
            let wrongKind = kinds.map { !$0.contains(stored.content[ReservedKey.entity]?.stringValue ?? "") }
            return (folder, true, wrongKind == true ? nil : stored)
        }
    }

    /// Whether the folder `entity` is kept in holds a document with this identity, without
    /// reading it; `nil` when the folder is not loaded.
    func holdsDocument(entity: String, id: UUID) -> (folder: String, holds: Bool?) {
        locked { state in
            let folder = state.querySchema.folder(of: entity).folder
            guard state.folders.isLoaded(folder) else { return (folder, nil) }
            return (folder, state.catalog.path(of: .init(entityName: folder, id: id)) != nil)
        }
    }

    /// Every document of an entity, in path order.
    func documents(entity: String) -> [StoredDocument] {
        locked { state in
            let (folder, kinds) = state.querySchema.folder(of: entity)
            let documents = state.catalog.paths.filter { $0.entity == folder }.sorted().compactMap {
                Self.stored(at: $0, in: &state.catalog)
            }
            guard let kinds else { return documents }
            return documents.filter { kinds.contains($0.content[ReservedKey.entity]?.stringValue ?? "") }
        }
    }

    private static func stored(at path: DocumentPath, in catalog: inout Catalog) -> StoredDocument? {
        guard let entry = catalog.entry(at: path), let content = catalog.content(at: path) else { return nil }
        return StoredDocument(version: entry.version, content: content)
    }

    /// How many documents of each entity's folder the catalog holds, folders without any left out.
    var documentCounts: [String: Int] { locked { $0.catalog.counts.filter { $0.value > 0 } } }

    /// The bytes of the catalog's documents and blobs, as last stamped.
    var documentBytes: Int64 {
        locked { state in
            state.catalog.entries.values.reduce(0) { $0 + $1.stamp.size }
                + state.catalog.blobs.values.reduce(0) { $0 + $1.size }
        }
    }

    /// Every blob file with its stamp.
    var blobStamps: [DocumentPath: FileStamp] { locked { $0.catalog.blobs } }

    /// The blob files beside `document`, with their stamps.
    func blobs(of document: DocumentPath) -> [DocumentPath: FileStamp] { locked { $0.catalog.blobs(of: document) } }

    /// The content of the document at `path`, decoded on first use; `nil` when the catalog has none.
    func content(at path: DocumentPath) -> JSONObject? { locked { $0.catalog.content(at: path) } }

    /// The paths of folder `name`'s documents.
    func paths(inFolder name: String) -> [DocumentPath] {
        locked { $0.catalog.entries(inFolder: name).map(\.path) }
    }

    /// How many live and soft-deleted documents of `entity` its folder holds.
    func tally(of entity: String) -> EntityTally {
        locked { state in
            let (folder, kinds) = state.querySchema.folder(of: entity)
            var tally = EntityTally()
            for entry in state.catalog.entries(inFolder: folder) {
                guard let members = entry.content.members([ReservedKey.entity, ReservedKey.deleted]) else {
                    continue
                }
                if let kinds, !kinds.contains(members[0]?.stringValue ?? "") { continue }
                if members[1] == nil { tally.live += 1 } else { tally.deleted += 1 }
                let day = entry.path.day
                tally.days = tally.days.map { min($0.lowerBound, day)...max($0.upperBound, day) } ?? day...day
            }
            return tally
        }
    }
}

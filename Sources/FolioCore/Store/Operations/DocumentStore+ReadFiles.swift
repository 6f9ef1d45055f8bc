// DocumentStore: document files read and parsed, on every core, into the catalog's entries.

import Dispatch
import FolioJSON
import Synchronization

extension DocumentStore {
    /// Reads new and changed files into the catalog, noting each as added or modified (or
    /// removed, when a document the catalog held can no longer be used) and each file that
    /// cannot be used in `broken`; `keepingContent` keeps the content a document had before.
    func read(
        _ toRead: [TreeListing.Entry], into state: inout StoreMemory.State, changes: inout StoreChanges,
        before: inout [DocumentPath: JSONObject], keepingContent: Bool,
        broken: inout [String: (stamp: FileStamp, issue: StoreIssue)], progress: ReadProgress?
    ) {
        for (found, result) in zip(toRead, readDocuments(toRead, schema: state.querySchema, progress: progress)) {
            let previousHash = state.catalog.entry(at: found.path)?.contentHash
            if case .success(let entry) = result, entry.contentHash == previousHash {
                // The same bytes under a new stamp (a `touch`, a rename back, a file read
                // again to confirm it): no change to anyone.
                state.catalog.restamp(found.path, entry.stamp, verified: entry.verified)
                continue
            }
            let existed = previousHash != nil
            if existed, keepingContent { before[found.path] = state.catalog.content(at: found.path) }
            switch result {
            case .success(let entry):
                broken[found.path.relativePath] = nil
                insert(entry, into: &state.catalog, issues: &broken)
                if existed { changes.modified.append(found.path) } else { changes.added.append(found.path) }
            case .failure(let failure):
                state.catalog.remove(found.path)
                if existed { changes.removed.append(found.path) }
                broken[found.path.relativePath] = (failure.stamp, failure.issue)
            }
        }
        changes.filesRead += toRead.count
        state.statistics.filesRead += toRead.count
    }

    /// Adds an entry; of two files with one identity, the one with the smaller path is kept
    /// (so the outcome does not depend on the walk's order) and the other reported.
    func insert(
        _ entry: Catalog.Entry, into catalog: inout Catalog,
        issues: inout [String: (stamp: FileStamp, issue: StoreIssue)]
    ) {
        guard let existing = catalog.insert(entry) else { return }
        let (kept, dropped) = existing < entry.path ? (existing, entry) : (entry.path, catalog.entry(at: existing)!)
        if kept == entry.path {
            catalog.remove(existing)
            catalog.insert(entry)
        }
        let path = dropped.path.relativePath
        let issue = StoreIssue(
            path: path,
            error: .invalidDocument(
                path: path, reason: "has the same identity as \(kept.relativePath); one of the two must go"))
        issues[path] = (dropped.stamp, issue)
    }

    struct ReadFailure: Error {
        var stamp: FileStamp
        var issue: StoreIssue
    }

    /// Reads and parses files, on every core, in the order given. A past revision's are read
    /// from git a few thousand at a time, one run of git each, while other cores parse.
    private func readDocuments(_ files: [TreeListing.Entry], schema: QuerySchema, progress: ReadProgress?) -> [Result<
        Catalog.Entry, ReadFailure
    >] {
        let chunkSize = pastTree == nil ? 256 : RevisionTree.objectsPerRead
        let chunkCount = (files.count + chunkSize - 1) / chunkSize
        let results = Mutex([[Result<Catalog.Entry, ReadFailure>]](repeating: [], count: chunkCount))
        let done = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: chunkCount) { chunk in
            let slice = files[(chunk * chunkSize)..<min(files.count, (chunk + 1) * chunkSize)]
            let read: [Result<Catalog.Entry, ReadFailure>]
            do throws(FolioError) {
                let fetched = try pastTree?.contents(of: slice.map(\.stamp))
                read = slice.map { readDocument($0, schema: schema, fetched: fetched) }
            } catch {
                read = slice.map {
                    .failure(ReadFailure(stamp: $0.stamp, issue: StoreIssue(path: $0.path.relativePath, error: error)))
                }
            }
            results.withLock { $0[chunk] = read }
            if let progress {
                done.withLock { count in
                    count += read.count
                    progress(count, files.count)
                }
            }
        }
        return results.withLock { $0.flatMap { $0 } }
    }

    /// Reads and parses one file; a past revision's from `fetched` when given (see `fileContent`).
    func readDocument(_ found: TreeListing.Entry, schema: QuerySchema, fetched: [FileStamp: [UInt8]]? = nil)
        -> Result<Catalog.Entry, ReadFailure>
    {
        let relative = found.path.relativePath
        func failure(_ error: FolioError, stamp: FileStamp = found.stamp) -> Result<Catalog.Entry, ReadFailure> {
            .failure(ReadFailure(stamp: stamp, issue: StoreIssue(path: relative, error: error)))
        }
        let bytes: [UInt8]
        let stamp: FileStamp
        do {
            (bytes, stamp) = try fileContent(
                relative, stamp: found.stamp, limit: JSONReader.defaultMaximumSize, fetched: fetched)
        } catch {
            return failure(error)
        }
        let value: JSONValue
        do {
            value = try JSONReader().read(bytes, file: relative)
        } catch {
            return failure(.unreadableJSON(error), stamp: stamp)
        }
        guard case .object(let object) = value else {
            return failure(
                .invalidDocument(path: relative, reason: "is a JSON \(value.typeName), not an object"), stamp: stamp)
        }
        // A subclass's documents lie in its hierarchy's root folder (its storage name).
        guard let entity = object[ReservedKey.entity]?.stringValue,
            entity == found.path.entity || schema.entity(of: object, inFolder: found.path.entity) != nil
        else {
            let found = object[ReservedKey.entity].map { "says \"$entity\": \($0)" } ?? "has no \"$entity\""
            return failure(
                .invalidDocument(path: relative, reason: "\(found) but lies in the \(entity(of: relative)) folder"),
                stamp: stamp)
        }
        return .success(
            Catalog.Entry(
                path: found.path, stamp: stamp, contentHash: ContentHash.of(bytes),
                verified: !stamp.isRacy(now: FileSystem.now()), content: content(of: object)))
    }

    /// The content a document just read is kept as: parsed, or for a past revision compact,
    /// as a cache file holds it. A revision is read by commands that ask a few members of
    /// most documents and then end, so its documents are encoded once here, on the core that
    /// read them, rather than on one core when the cache file is written, and take a fraction
    /// of a parsed object's memory meanwhile.
    private func content(of object: JSONObject) -> DocumentContent {
        guard pastTree != nil else { return DocumentContent(parsed: object) }
        var compact: [UInt8] = []
        CompactJSON.encode(.object(object), into: &compact)
        return DocumentContent(cached: CacheBuffer(bytes: compact), range: 0..<compact.count)
    }

    private func entity(of relative: String) -> String { String(relative.prefix { $0 != "/" }) }
}

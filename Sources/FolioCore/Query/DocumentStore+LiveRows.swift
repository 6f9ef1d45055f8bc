import Foundation

/// A document of a live result: its identity, its file and its sort keys, which place it
/// among the others without reading it again.
package struct LiveRow: Sendable {
    package var id: UUID
    package var path: DocumentPath
    var keys: [QueryValue]

    /// Whether `self` comes before `other` under a query's order: the sort keys, then the
    /// store's order (day, then identity), as a fetch orders them.
    func precedes(_ other: LiveRow, under sort: [DocumentQuery.SortKey]) -> Bool {
        for (position, key) in sort.enumerated() {
            switch key.order(keys[position], other.keys[position]) {
            case .orderedAscending: return true
            case .orderedDescending: return false
            case .orderedSame: continue
            }
        }
        return path < other.path
    }
}

extension DocumentStore {
    /// A query's matches in its order, with their sort keys: a live result's first rows.
    /// Only for a query without offset or limit.
    func liveRows(_ query: DocumentQuery) throws(FolioError) -> [LiveRow] {
        try run(query, overlay: []) { run in
            let matches = run.perform(overlay: [], countOnly: false).matches
            return matches.compactMap { run.liveRow($0.id, filtering: false) }
        }
    }

    /// The row of each identity whose document the query selects now; an identity whose
    /// document it does not select (changed, deleted or gone) has none. This is the work of
    /// keeping a live result current: the changed documents are tested, not every one.
    package func liveRows(_ query: DocumentQuery, among ids: Set<UUID>) throws(FolioError) -> [UUID: LiveRow] {
        try run(query, overlay: []) { run in
            var rows: [UUID: LiveRow] = [:]
            for id in ids { rows[id] = run.liveRow(id, filtering: true) }
            return rows
        }
    }
}

extension QueryRun {
    /// A document's row, if it exists, is not soft-deleted (unless the query includes those)
    /// and, when `filtering`, passes the filter.
    fileprivate mutating func liveRow(_ id: UUID, filtering: Bool) -> LiveRow? {
        let identity = PersistentIdentifier(entityName: query.entity, id: id)
        guard let content = evaluation.documents.content(of: identity),
            let path = evaluation.documents.catalog.path(of: identity)
        else { return nil }
        if filtering, let filter = query.filter, !evaluation.test(filter, on: identity, content: content) { return nil }
        return LiveRow(
            id: id, path: path,
            keys: query.sort.map { evaluation.value(of: $0.expression, on: identity, content: content) }
        )
    }
}

extension DocumentStore {
    /// Watches the store's folder (see `StoreWatcher`) and calls `onChange` after each burst
    /// of changes, on the watcher's thread, until the watcher is stopped or released.
    package func watchFiles(onChange: @escaping @Sendable (WatchedChanges) -> Void) throws(FolioError) -> StoreWatcher {
        try StoreWatcher(folder: folder, onChange: onChange)
    }
}

extension DocumentStore {
    /// Whether a query's filter or order reads documents other than the one it tests (a
    /// relationship's destination): then a change to those can change its answer for a
    /// document that did not change itself.
    func readsOtherDocuments(_ query: DocumentQuery) -> Bool {
        let schema = memory.schema
        guard let entity = schema.entities[query.entity] else { return true }
        var pending = (query.filter.map { [$0] } ?? []) + query.sort.map(\.expression)
        while let expression = pending.popLast() {
            if case .member(.variable(0), let name) = expression,
                case .relationship? = entity.property(named: name)
            {
                return true
            }
            pending += expression.children
        }
        return false
    }
}

import FolioJSON
import Foundation

extension ModelContext {
    /// The transactions of the container's stores the descriptor selects, oldest first
    /// unless it sorts them: every save of any context or process, the `folio` tool's
    /// writes, and the changes found on disk (author `"external"`), as SwiftData's
    /// `fetchHistory`.
    ///
    /// A predicate comparing `$0.token > token` (alone or with `&&`) reads only what comes
    /// after the token. If transactions after it were deleted (`deleteHistory`, or the
    /// history's cap), the fetch throws `SwiftDataError.historyTokenExpired`: the app should
    /// fetch its models again and keep the newest token.
    ///
    /// - Throws: `.historyTokenExpired` when transactions after the predicate's token were deleted;
    ///   `.misuse` for a transaction type other than `DefaultHistoryTransaction` or a predicate that
    ///   cannot be evaluated; `.damagedHistory`, `.fileSystem` or `.unsafePath` when the history
    ///   cannot be read.
    public func fetchHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws(FolioError) -> [T] {
        guard T.self == DefaultHistoryTransaction.self else {
            throw .misuse("Folio's stores keep DefaultHistoryTransaction histories; fetch those")
        }
        let predicate = descriptor.predicate.map { ($0 as Any) as! Predicate<DefaultHistoryTransaction> }
        let after = predicate.flatMap(HistoryTokenBound.lowerBound(of:))
        var transactions: [DefaultHistoryTransaction] = []
        for store in opened.stores where store.historyLimit > 0 {
            let identifier = try store.historyIdentifier
            let since = after?.transaction(in: identifier) ?? 0
            let (records, reachesBack) = try store.history(after: since)
            if after != nil, !reachesBack {
                throw FolioError(
                    .historyTokenExpired,
                    "the history after transaction \(since) of this store was deleted, so the changes since that token are no longer known",
                    path: store.root, hint: "fetch the models again, then fetch the history without the token")
            }
            for record in records {
                let transaction = self.transaction(record, store: identifier)
                if let predicate {
                    do { guard try predicate.evaluate(transaction) else { continue } } catch {
                        throw .misuse("the history predicate cannot be evaluated: \(error)")
                    }
                }
                transactions.append(transaction)
            }
        }
        if !descriptor.sortBy.isEmpty {
            let order = descriptor.sortBy.map { $0 as! SortDescriptor<DefaultHistoryTransaction> }
            transactions.sort { lhs, rhs in
                for sort in order {
                    switch sort.compare(lhs, rhs) {
                    case .orderedAscending: return true
                    case .orderedDescending: return false
                    case .orderedSame: continue
                    }
                }
                return false
            }
        } else if opened.stores.count > 1 {
            transactions.sort { ($0.timestamp, $0.transactionIdentifier) < ($1.timestamp, $1.transactionIdentifier) }
        }
        if descriptor.fetchLimit > 0, transactions.count > descriptor.fetchLimit {
            transactions.removeSubrange(Int(clamping: descriptor.fetchLimit)...)
        }
        return transactions as! [T]  // T is DefaultHistoryTransaction, checked above
    }

    /// Deletes the transactions the descriptor's predicate selects (all of them without
    /// one) from the history of the container's stores, as SwiftData's `deleteHistory`;
    /// `$0.token < token` deletes what an app has already processed. Tokens of the
    /// transactions left stay as they were.
    ///
    /// - Throws: `.misuse` for a transaction type other than `DefaultHistoryTransaction` or a
    ///   predicate that cannot be evaluated; `.damagedHistory`, `.fileSystem`, `.unsafePath` or
    ///   `.locked` when the history cannot be read or rewritten.
    public func deleteHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws(FolioError) {
        guard T.self == DefaultHistoryTransaction.self else {
            throw .misuse("Folio's stores keep DefaultHistoryTransaction histories; delete those")
        }
        let predicate = descriptor.predicate.map { ($0 as Any) as! Predicate<DefaultHistoryTransaction> }
        for store in opened.stores where store.historyLimit > 0 {
            let identifier = try store.historyIdentifier
            var failure: (any Error)?
            try store.deleteHistory { record in
                guard let predicate, failure == nil else { return failure == nil }
                do { return try predicate.evaluate(self.transaction(record, store: identifier)) } catch {
                    failure = error
                    return false
                }
            }
            if let failure { throw .misuse("the history predicate cannot be evaluated: \(failure)") }
        }
    }

    /// A history record as the app reads it: each change typed by its model's class.
    private func transaction(_ record: HistoryRecord, store: String) -> DefaultHistoryTransaction {
        var changes: [HistoryChange] = []
        changes.reserveCapacity(record.changes.count)
        for (index, change) in record.changes.enumerated() {
            guard let entity = opened.schema.entity(named: change.entity), let type = entity.modelType.value else {
                continue  // an entity this app's schema no longer has
            }
            changes.append(
                Self.change(
                    change, of: type, entity: entity, index: Int64(index), transaction: record.token,
                    identifier: PersistentIdentifier(entityName: entity.storageName, id: change.id)))
        }
        return DefaultHistoryTransaction(record, store: store, changes: changes)
    }

    private static func change<Model: PersistentModel>(
        _ change: HistoryRecord.Change, of type: Model.Type, entity: Schema.Entity, index: Int64, transaction: Int64,
        identifier: PersistentIdentifier
    ) -> HistoryChange {
        switch change.kind {
        case .insert:
            return .insert(
                DefaultHistoryInsert<Model>(
                    changeIdentifier: index, transactionIdentifier: transaction,
                    changedPersistentIdentifier: identifier))
        case .update:
            let keyPaths = change.attributes.compactMap { name -> (any PartialKeyPath<Model> & Sendable)? in
                guard
                    let keyPath = entity.properties.first(where: { $0.name == name })?.keyPath as? PartialKeyPath<Model>
                else { return nil }
                // Key paths to stored properties hold no mutable state; a conditional cast to a
                // marker protocol does not exist, and the two have one layout.
                return unsafeBitCast(keyPath, to: (any PartialKeyPath<Model> & Sendable).self)
            }
            return .update(
                DefaultHistoryUpdate<Model>(
                    changeIdentifier: index, transactionIdentifier: transaction,
                    changedPersistentIdentifier: identifier, updatedAttributes: keyPaths))
        case .delete:
            var kept: [(attribute: Schema.Attribute, json: JSONValue)] = []
            for case .attribute(let attribute) in entity.properties {
                // Kept only when it decodes: the tombstone holds no value it cannot give.
                guard let json = change.tombstone[attribute.name], attribute.keyPath.value != nil,
                    let coding = attribute.coding.value, (try? coding.decode(json)) != nil
                else { continue }
                kept.append((attribute, json))
            }
            return .delete(
                DefaultHistoryDelete<Model>(
                    changeIdentifier: index, transactionIdentifier: transaction,
                    changedPersistentIdentifier: identifier, tombstone: HistoryTombstone(kept: kept)))
        }
    }
}

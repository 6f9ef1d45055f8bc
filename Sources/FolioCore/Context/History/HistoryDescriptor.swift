import Foundation

/// Which transactions `fetchHistory(_:)` returns, or `deleteHistory(_:)` deletes: SwiftData's
/// `HistoryDescriptor`.
///
/// A predicate that starts with `$0.token > token` (alone or with `&&`) reads only the
/// history after that token, however long it is.
public struct HistoryDescriptor<TransactionType: HistoryTransaction> {
    /// Which transactions to select; `nil` selects all of them.
    public var predicate: Predicate<TransactionType>?
    /// The most transactions to return; 0 for all.
    public var fetchLimit: UInt64 = 0
    /// The order of the transactions; empty for the order they were saved in.
    public var sortBy: [SortDescriptor<TransactionType>] = []

    /// A descriptor selecting what `predicate` accepts (all transactions without one), in the order saved.
    public init(predicate: Predicate<TransactionType>? = nil) {
        self.predicate = predicate
    }

    /// A descriptor selecting what `predicate` accepts (all transactions without one), in the
    /// order `sortBy` gives (the order saved when it is empty).
    public init(predicate: Predicate<TransactionType>? = nil, sortBy: [SortDescriptor<TransactionType>] = []) {
        self.predicate = predicate
        self.sortBy = sortBy
    }
}

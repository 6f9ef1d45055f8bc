import Foundation

/// A transaction in a store's history: SwiftData's `HistoryTransaction`.
public protocol HistoryTransaction: Hashable, Identifiable, Sendable {
    associatedtype TokenType: Comparable, Hashable, Identifiable, Sendable
    associatedtype TransactionIdentifier: Comparable, Hashable, Sendable
    /// When the transaction was saved, or found on disk for an external one.
    var timestamp: Date { get }
    /// What it inserted, updated and deleted, in the order saved.
    var changes: [HistoryChange] { get }
    /// Its place in the history: keep the last one seen to fetch only later transactions.
    var token: TokenType { get }
    var transactionIdentifier: TransactionIdentifier { get }
    /// The identifier of the store that holds it.
    var storeIdentifier: String { get }
    /// The saving context's `author`; `"external"` for changes Folio found on disk (a hand
    /// edit, `git pull`); `"folio"` for the `folio` tool's.
    var author: String? { get }
}

/// One transaction of a Folio store's history, as `ModelContext.fetchHistory(_:)` returns it.
public struct DefaultHistoryTransaction: HistoryTransaction {
    /// A transaction's token: its store's identifier and the transaction's number.
    public typealias TokenType = DefaultHistoryToken
    /// A transaction's number in its store.
    public typealias TransactionIdentifier = Int64

    /// The transaction's number in its store, as `transactionIdentifier`.
    public var id: Int64 { transactionIdentifier }
    /// When the transaction was committed; for changes found on disk, when Folio found them.
    public let timestamp: Date
    /// What the transaction inserted, updated and deleted, in the order saved, leaving out models of
    /// entities this app's schema no longer has.
    public let changes: [HistoryChange]
    /// The transaction's place in the history: keep the last one seen and fetch with
    /// `$0.token > token` to read only later transactions.
    public let token: DefaultHistoryToken
    /// The transaction's number in its store: 1 for the first, one more for each next.
    public let transactionIdentifier: Int64
    /// The identifier of the store the transaction is in, kept in `.folio/history/store`; each copy
    /// of a store has its own.
    public let storeIdentifier: String
    /// The bundle identifier of the program that wrote the transaction, or its process's
    /// name where it has no bundle (a Linux program); empty for a change Folio did not make
    /// (`author` `"external"`) and for transactions written before Folio recorded it.
    public let bundleIdentifier: String
    /// The identifier of the process that wrote the transaction, in decimal; empty where
    /// `bundleIdentifier` is.
    public let processIdentifier: String
    /// The saving context's `author`; `"external"` for changes Folio found on disk (a hand edit,
    /// `git pull`); `"folio"` for the `folio` tool's.
    public let author: String?

    /// Whether both are the same transaction: the same store and transaction number.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.storeIdentifier == rhs.storeIdentifier && lhs.transactionIdentifier == rhs.transactionIdentifier
    }

    /// Hashes the store and transaction number, consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storeIdentifier)
        hasher.combine(transactionIdentifier)
    }

    init(_ record: HistoryRecord, store: String, changes: [HistoryChange]) {
        timestamp = record.timestamp
        self.changes = changes
        token = DefaultHistoryToken(store: store, transaction: record.token)
        transactionIdentifier = record.token
        storeIdentifier = store
        bundleIdentifier = record.writer?.bundle ?? ""
        processIdentifier = record.writer?.process ?? ""
        author = record.author
    }
}

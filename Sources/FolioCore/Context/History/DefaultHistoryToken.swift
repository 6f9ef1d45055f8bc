/// A place in the history: what an app keeps (it is `Codable`) to fetch only the
/// transactions after it next time, as SwiftData's `DefaultHistoryToken`.
///
/// `tokenValue` maps each store's identifier to the number of its last transaction the
/// token covers. A transaction's token names its own store only.
public struct DefaultHistoryToken: HistoryToken, Codable {
    /// A token's value: the number of the last transaction covered, by store identifier.
    public typealias TokenType = [String: Int64]

    /// The last transaction covered, by store identifier.
    public var tokenValue: [String: Int64]?

    init(store: String, transaction: Int64) { tokenValue = [store: transaction] }

    /// A number for the token: its transaction's for a token of one store; for one of several,
    /// a hash of each store's name and transaction, the same in every run (a `hashValue`
    /// would change with the process's random seed, and an id kept between launches with it).
    public var id: Int {
        guard let values = tokenValue else { return 0 }
        if values.count == 1 { return Int(truncatingIfNeeded: values.first!.value) }
        let text = values.sorted { $0.key < $1.key }.map { "\($0.key)\t\($0.value)\n" }.joined()
        return Int(truncatingIfNeeded: ContentHash.of(Array(text.utf8)))
    }

    /// Whether `rhs` is later than `lhs` in some store `rhs` names: a transaction's token is
    /// greater than a kept token when it is newer in its store. For tokens of one store,
    /// which is what apps compare, that is the order of their transactions.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        let left = lhs.tokenValue ?? [:]
        return (rhs.tokenValue ?? [:]).contains { store, value in (left[store] ?? 0) < value }
    }

    /// The identifier of the store the token covers (iOS 27): a transaction's token names
    /// its own store. A token Folio gathered over several stores (one `fetchHistory` of a
    /// container with many) names them all, joined by commas in order; an empty token, none.
    public var storeIdentifier: String { (tokenValue ?? [:]).keys.sorted().joined(separator: ",") }

    /// The transaction number this token covers in a store, 0 for none.
    func transaction(in store: String) -> Int64 { tokenValue?[store] ?? 0 }
}

/// A token of a history: comparable, and codable so an app can keep it across launches.
public protocol HistoryToken: Comparable, Codable, Hashable, Identifiable, Sendable {
    associatedtype TokenType: Codable, Hashable, Sendable
    /// The token's value.
    var tokenValue: TokenType? { get }
    /// The identifier of the store the token covers.
    var storeIdentifier: String { get }
}

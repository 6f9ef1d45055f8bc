import Foundation

/// A query on one entity's documents: what `fetch`, `fetchCount` and the command line
/// run, on stored JSON values alone.
public struct DocumentQuery: Sendable {
    /// The name of the entity whose documents are queried.
    public var entity: String
    /// Which documents; all of them when `nil`.
    public var filter: QueryExpression?
    /// The order, key by key; without keys, the order of the store (day, then identity).
    public var sort: [SortKey]
    /// How many of the matching documents, in order, to skip before the page starts.
    public var offset: Int
    /// The most documents to return; `nil` returns all after `offset`.
    public var limit: Int?
    /// Whether soft-deleted documents are included.
    public var includeDeleted: Bool

    /// A query of an entity's documents: all of them, in the store's order, unless a filter,
    /// sort keys, an offset or a limit say otherwise; soft-deleted ones only with `includeDeleted`.
    public init(
        entity: String, filter: QueryExpression? = nil, sort: [SortKey] = [], offset: Int = 0, limit: Int? = nil,
        includeDeleted: Bool = false
    ) {
        self.entity = entity
        self.filter = filter
        self.sort = sort
        self.offset = offset
        self.limit = limit
        self.includeDeleted = includeDeleted
    }

    /// One key of an order: a value of each document, ascending or not, and for text the
    /// comparator a `SortDescriptor` names (`.localizedStandard` by default there).
    public struct SortKey: Sendable {
        /// The value compared: usually a property, `.property("startTime")`.
        public var expression: QueryExpression
        /// Whether smaller values come first.
        public var ascending: Bool
        /// How text compares; `nil` compares as Swift's `<` does.
        public var comparator: String.StandardComparator?

        /// A key ordering by `expression`, ascending unless told otherwise; `comparator` `nil`
        /// compares text as Swift's `<` does.
        public init(_ expression: QueryExpression, ascending: Bool = true, comparator: String.StandardComparator? = nil)
        {
            self.expression = expression
            self.ascending = ascending
            self.comparator = comparator
        }

        /// The order of two documents' values under this key.
        func order(_ lhs: QueryValue, _ rhs: QueryValue) -> ComparisonResult {
            let order: ComparisonResult
            if let comparator, case .string(let a) = lhs, case .string(let b) = rhs {
                order = LocalizedStringOrder.compare(a, b, using: comparator)
            } else {
                order = lhs.sortOrder(rhs)
            }
            return order.reversed(!ascending)
        }
    }
}

/// What a query found: the page of documents asked for, how many matched in all, and
/// how the engine got there.
public struct DocumentQueryResult: Sendable {
    /// The documents of the page, in order. A document with unsaved content (a
    /// context's pending insert or change) is here with its stored version, if any.
    public var matches: [Match]
    /// How many documents matched before offset and limit.
    public var total: Int
    /// How the query reached its documents and how many it read, as `--explain` prints it.
    public var explanation: QueryExplanation
    /// The generation of the entity's table the matches' rows are positions in, when
    /// they were read from it.
    var tableGeneration: UInt64?

    /// One document of the page: its identity and its stored version.
    public struct Match: Sendable {
        /// The document's identity (its file name and the model's `id`).
        public var id: UUID
        /// The stored document; `nil` for one only a context's pending changes hold.
        public var stored: StoredDocument?
        /// Where the stored document is in the entity's table, when it was read from it.
        var row: Int?
        /// Whether a model was made from this stored content before, every member decoded.
        var isKnownReadable = false
    }
}

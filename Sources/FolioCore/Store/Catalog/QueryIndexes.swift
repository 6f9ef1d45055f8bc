import FolioJSON
import Foundation

/// The in-memory indexes over a store's documents, built per entity from the catalog's
/// values (the `.folio/cache` content, never re-read files) the first time a query
/// needs them, then brought up to date with the documents that changed (a save, a refresh
/// that found an external edit; see `QueryIndexes+Changes.swift`), and built anew only
/// after many changes at once.
///
/// Each entity's documents sit in one table in store order (day, then identity); the
/// indexes hold positions in it, so a lookup reads the documents it names and nothing
/// else, and a day range is one slice of the table.
struct QueryIndexes {
    /// One stored document as the indexes see it.
    struct Row {
        /// Where the document is and the version its content was read at, which a
        /// fetch hands on with each result (kept here so it is not looked up per result).
        var version: DocumentVersion
        /// The content, shared with the catalog's entry: a cached document is decoded when
        /// a query first reads it, not when the table is built.
        let source: DocumentContent
        /// The content once a query has decoded it, kept in the row itself: a scan reads it
        /// without a load of `source` per row, which was half of a warm scan's time.
        var decoded: JSONObject?
        var isDeleted: Bool
        /// Whether a model was made from this content, every member decoded, and it is not
        /// soft-deleted: a model made from it again can then decode its values when first
        /// read (the model layer fills it so).
        var isKnownReadable = false

        var path: DocumentPath { version.path }

        /// The document's content, decoded on first use.
        var content: JSONObject { decoded ?? source.object ?? [:] }
    }

    /// One entity's table and indexes, as of one generation of its documents.
    struct EntityIndexes {
        var generation: UInt64
        /// Every readable document of the entity, in store order.
        var rows: [Row] = []
        /// Value indexes by their properties: each key (the properties' values, in order)
        /// maps to the positions of the live documents holding it.
        var values: [[String]: [[QueryValue]: [Int]]] = [:]
        /// The same for soft-deleted documents, kept apart so live ones are counted without reading.
        var deletedValues: [[String]: [[QueryValue]: [Int]]] = [:]
        /// The days that have documents, in order, and where each day's rows start.
        var days: [Day] = []
        var dayStarts: [Int] = []
        /// Ordered indexes by property (built on first use): positions in the order of
        /// the property's values, ties in store order.
        var ordered: [String: [(value: QueryValue, position: Int)]] = [:]
        /// How many scans tested equality on each number property that has no ordered index
        /// yet (see `orderedForEquality`).
        var equalityScans: [String: Int] = [:]
    }

    private var entities: [String: EntityIndexes] = [:]

    /// Records that models were made from these rows of an entity's table, every member
    /// decoded, unless the table has changed since they were read. Soft-deleted rows are
    /// left out, so that a model made from a known row needs no look for `"$deleted"`.
    mutating func rememberReadable(rows: [Int], of entity: String, generation: UInt64) {
        // Taken out while it changes: one lookup, not two per row.
        guard var indexes = entities.removeValue(forKey: entity) else { return }
        defer { entities[entity] = indexes }
        guard indexes.generation == generation else { return }
        for row in rows where !indexes.rows[row].isDeleted { indexes.rows[row].isKnownReadable = true }
    }

    /// The positions of the paths of one folder's documents in store order (`DocumentPath`'s:
    /// day, then the UUID's bytes; one folder has one entity, and documents no blob property).
    static func storeOrder<Paths: Collection<DocumentPath>>(of paths: Paths) -> [Paths.Index] {
        var keys: [(key: DocumentPath.OrderKey, position: Paths.Index)] = []
        keys.reserveCapacity(paths.count)
        for position in paths.indices { keys.append((paths[position].orderKey, position)) }
        keys.sort { $0.key < $1.key }
        return keys.map(\.position)
    }

    /// Keeps the decoded content of these rows of an entity's table in the rows, unless the
    /// table has changed since they were read (see `Row.decoded`).
    mutating func keepDecoded(rows: [Int], of entity: String, generation: UInt64) {
        guard var indexes = entities.removeValue(forKey: entity) else { return }
        defer { entities[entity] = indexes }
        guard indexes.generation == generation else { return }
        for row in rows { indexes.rows[row].decoded = indexes.rows[row].source.object }
    }

    /// The value indexes an entity has: `#Index`, `.indexed`, unique constraints, and
    /// each to-one relationship's key. A unique `id: UUID` that names the documents has
    /// none: the catalog finds a document by it (an identity lookup), and an index of
    /// every identity cost memory and upkeep for nothing.
    static func declaredIndexes(of entity: QuerySchema.Entity) -> [[String]] {
        var indexes: [[String]] = []
        for properties in entity.indices + entity.uniquenessConstraints + entity.toOneRelationships.map({ [$0] })
        where !indexes.contains(properties) && !(properties == ["id"] && entity.hasOwnIdentity) {
            indexes.append(properties)
        }
        return indexes
    }

    /// The entity's table and indexes as of its documents now: the table made before,
    /// following the documents that changed since (see `EntityIndexes.follow`), or built
    /// anew when too many did or the catalog no longer knows which.
    mutating func table(of entity: String, in catalog: inout Catalog, schema: QuerySchema) -> EntityIndexes {
        let generation = catalog.generation(of: entity)
        if let indexes = entities[entity], indexes.generation == generation { return indexes }
        defer { catalog.forgetChanges(of: entity, through: generation) }
        // Taken out while it changes, so that the dictionary's copy does not make it copy.
        if var indexes = entities.removeValue(forKey: entity), let described = schema.entities[entity],
            let changed = catalog.changes(of: entity, since: indexes.generation),
            changed.count <= max(64, indexes.rows.count / 4)
        {
            indexes.follow(changed, in: &catalog, entity: described, generation: generation)
            entities[entity] = indexes
            return indexes
        }
        var indexes = EntityIndexes(generation: generation)
        // The entries themselves, rather than their paths looked up again one by one, in
        // store order: sorted by a key of plain numbers, then taken in that order. Sorting the
        // entries moved and retained each one's strings and content at every step: an
        // eighth of the first count over 200,000 strokes.
        let entries = catalog.entries(inFolder: entity)
        let reading = KeyReading(schema.entities[entity])
        var values = [[String]: [[QueryValue]: [Int]]](uniqueKeysWithValues: reading.declared.map { ($0, [:]) })
        var deletedValues = values
        indexes.rows.reserveCapacity(entries.count)
        for next in Self.storeOrder(of: entries.lazy.map(\.path)) {
            let entry = entries[next]
            guard let members = entry.content.members(reading.needed) else { continue }
            let path = entry.path
            if indexes.days.last != path.day {
                indexes.days.append(path.day)
                indexes.dayStarts.append(indexes.rows.count)
            }
            let position = indexes.rows.count
            let isDeleted = KeyReading.isDeleted(members)
            indexes.rows.append(Row(version: entry.version, source: entry.content, isDeleted: isDeleted))
            for (index, properties) in reading.declared.enumerated() {
                let key = reading.key(index, of: members)
                if isDeleted {
                    deletedValues[properties]![key, default: []].append(position)
                } else {
                    values[properties]![key, default: []].append(position)
                }
            }
        }
        indexes.values = values
        indexes.deletedValues = deletedValues
        entities[entity] = indexes
        return indexes
    }

    /// How a document's keys in an entity's declared indexes are read: the members to read of
    /// it (the soft-delete mark first, then every indexed property) and, from those, each
    /// index's key. Only these members are read of a cached document: decoding all of them
    /// for every document made the first query of a large entity pay for the rest. The
    /// query table and a cache file's index part (`CacheIndex.Builder`) read keys so.
    struct KeyReading {
        /// The declared indexes (see `declaredIndexes`), in the order `key` numbers them.
        let declared: [[String]]
        /// The schema of each index's properties, looked up once rather than per document.
        private let kinds: [[QuerySchema.Property?]]
        /// The members to read of each document, in the order `key` and `isDeleted` take them.
        let needed: [String]
        private let slot: [String: Int]

        /// The reading of `entity`'s declared indexes (none for an entity the schema does not know).
        init(_ entity: QuerySchema.Entity?) {
            declared = entity.map(QueryIndexes.declaredIndexes) ?? []
            kinds = declared.map { $0.map { entity?.property(named: $0) } }
            needed = [ReservedKey.deleted] + Array(Set(declared.joined())).sorted()
            slot = Dictionary(uniqueKeysWithValues: needed.enumerated().map { ($1, $0) })
        }

        /// Whether members read as `needed` are a soft-deleted document's.
        static func isDeleted(_ members: [JSONValue?]) -> Bool { members[0] != nil }

        /// A document's key in the declared index numbered `index`, from its members read as `needed`.
        func key(_ index: Int, of members: [JSONValue?]) -> [QueryValue] {
            key(index) { members[slot[$0]!] }
        }

        /// A document's key in the declared index numbered `index`: its properties' values, in
        /// order, each as `member` gives it (from parsed content) and read as its schema says.
        func key(_ index: Int, member: (String) -> JSONValue?) -> [QueryValue] {
            zip(declared[index], kinds[index]).map { name, property in
                QueryValue(stored: member(name) ?? .null, as: property)
            }
        }
    }

    /// The positions of the documents whose `properties` hold `key`, in store order
    /// (soft-deleted ones only when asked).
    static func lookup(_ table: EntityIndexes, properties: [String], key: [QueryValue], includeDeleted: Bool) -> [Int] {
        let live = table.values[properties]?[key] ?? []
        guard includeDeleted, let deleted = table.deletedValues[properties]?[key] else { return live }
        return (live + deleted).sorted()
    }

    /// The positions of the documents in day folders from `first` through `last`, and
    /// how many days that is of how many.
    static func rows(_ table: EntityIndexes, days range: ClosedRange<Day>) -> (
        positions: Range<Int>, days: Int, of: Int
    ) {
        let start = table.days.partitioningIndex { $0 >= range.lowerBound }
        let end = table.days.partitioningIndex { $0 > range.upperBound }
        guard start < end else { return (0..<0, 0, table.days.count) }
        let last = end < table.dayStarts.count ? table.dayStarts[end] : table.rows.count
        return (table.dayStarts[start]..<last, end - start, table.days.count)
    }

    /// The ordered index on `property` for an equality on it that no declared index serves:
    /// the one a sort or an earlier query built, or one built now for the second such
    /// query of the table's life; `nil` for the first, which scans. A scan reads every
    /// document; building the index costs a few scans, which a query asked again pays
    /// back at once (it then reads only the documents holding the value), and the index
    /// follows saves as every index does. A one-off question never builds it.
    mutating func orderedForEquality(
        entity: String, on property: String, in catalog: inout Catalog, schema: QuerySchema
    )
        -> (EntityIndexes, [(value: QueryValue, position: Int)])?
    {
        var indexes = table(of: entity, in: &catalog, schema: schema)
        if let ordered = indexes.ordered[property] { return (indexes, ordered) }
        indexes.equalityScans[property, default: 0] += 1
        let scans = indexes.equalityScans[property, default: 0]
        entities[entity] = indexes
        return scans < 2 ? nil : ordered(entity: entity, by: property, in: &catalog, schema: schema)
    }

    /// An entity's documents ordered by a property's value (ties in store order),
    /// built on first use for this generation.
    mutating func ordered(entity: String, by property: String, in catalog: inout Catalog, schema: QuerySchema) -> (
        EntityIndexes, [(value: QueryValue, position: Int)]
    ) {
        var indexes = table(of: entity, in: &catalog, schema: schema)
        if let ordered = indexes.ordered[property] { return (indexes, ordered) }
        let described = schema.entities[entity]?.property(named: property)
        // The one member of each document, read without decoding the rest of a cached one.
        let values = indexes.rows.map {
            QueryValue(stored: $0.source.members([property])?[0] ?? .null, as: described)
        }
        // Positions are store order, so breaking ties by position keeps ties so.
        let ordered = values.indices.sorted { a, b in
            switch values[a].sortOrder(values[b]) {
            case .orderedAscending: true
            case .orderedDescending: false
            case .orderedSame: a < b
            }
        }.map { (value: values[$0], position: $0) }
        indexes.ordered[property] = ordered
        entities[entity] = indexes
        return (indexes, ordered)
    }
}

extension Collection {
    /// The index of the first element for which `belongs` is true, for a collection
    /// partitioned so (all `false`, then all `true`): a binary search.
    func partitioningIndex(where belongs: (Element) -> Bool) -> Index {
        var low = startIndex
        var count = self.count
        while count > 0 {
            let half = count / 2
            let middle = index(low, offsetBy: half)
            if belongs(self[middle]) {
                count = half
            } else {
                low = index(after: middle)
                count -= half + 1
            }
        }
        return low
    }
}

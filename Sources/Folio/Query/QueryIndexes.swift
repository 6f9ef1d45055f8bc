import Foundation
import FolioJSON

/// The in-memory indexes over a store's documents, built per entity from the catalog's
/// values (the `.folio/cache` content, never re-read files) the first time a query
/// needs them, and rebuilt when the entity's documents change (a save, a refresh that
/// found an external edit).
struct QueryIndexes {
    /// One entity's indexes, as of one generation of its documents.
    struct EntityIndexes {
        var generation: UInt64
        /// Every document of the entity, in store order (day, then identity).
        var paths: [DocumentPath] = []
        /// Value indexes by their properties: each key (the properties' values, in order)
        /// maps to the live documents holding it, in store order.
        var values: [[String]: [[QueryValue]: [UUID]]] = [:]
        /// The same for soft-deleted documents, kept apart so counts of live ones need no reading.
        var deletedValues: [[String]: [[QueryValue]: [UUID]]] = [:]
        /// Documents by day folder, and the days in order (built on first use).
        var days: [Day: [DocumentPath]]?
        var sortedDays: [Day] = []
        /// Ordered indexes by property (built on first use): each document's value, in
        /// the order of the values and then the store's.
        var ordered: [String: [(value: QueryValue, path: DocumentPath)]] = [:]
    }

    private var entities: [String: EntityIndexes] = [:]

    /// The value indexes an entity has: `#Index`, `.indexed`, unique constraints, and
    /// each to-one relationship's key.
    static func declaredIndexes(of entity: QuerySchema.Entity) -> [[String]] {
        var indexes: [[String]] = []
        for properties in entity.indices + entity.uniquenessConstraints + entity.toOneRelationships.map({ [$0] })
        where !indexes.contains(properties) {
            indexes.append(properties)
        }
        return indexes
    }

    /// The documents whose `properties` hold `key` (soft-deleted ones only when asked),
    /// building the index when the entity changed since (or has none yet).
    mutating func lookup(
        entity: String, properties: [String], key: [QueryValue], includeDeleted: Bool = true, in catalog: inout Catalog, schema: QuerySchema
    ) -> [UUID] {
        let indexes = current(entity, in: &catalog, schema: schema)
        let live = indexes.values[properties]?[key] ?? []
        guard includeDeleted, let deleted = indexes.deletedValues[properties]?[key] else { return live }
        return live + deleted
    }

    /// Every document of an entity, in store order.
    mutating func paths(of entity: String, in catalog: inout Catalog, schema: QuerySchema) -> [DocumentPath] {
        current(entity, in: &catalog, schema: schema).paths
    }

    /// The documents in day folders from `first` through `last`, and how many days that
    /// is of how many.
    mutating func documents(entity: String, days range: ClosedRange<Day>, in catalog: inout Catalog, schema: QuerySchema) -> (paths: [DocumentPath], days: Int, of: Int) {
        var indexes = current(entity, in: &catalog, schema: schema)
        if indexes.days == nil {
            var days: [Day: [DocumentPath]] = [:]
            for path in indexes.paths { days[path.day, default: []].append(path) }
            indexes.days = days
            indexes.sortedDays = days.keys.sorted()
            entities[entity] = indexes
        }
        let sorted = indexes.sortedDays
        let start = sorted.partitioningIndex { $0 >= range.lowerBound }
        let end = sorted.partitioningIndex { $0 > range.upperBound }
        guard start < end else { return ([], 0, sorted.count) }
        return (sorted[start..<end].flatMap { indexes.days![$0]! }, end - start, sorted.count)
    }

    /// An entity's documents ordered by a property's value (ties in store order),
    /// built on first use for this generation.
    mutating func ordered(entity: String, by property: String, in catalog: inout Catalog, schema: QuerySchema) -> [(value: QueryValue, path: DocumentPath)] {
        var indexes = current(entity, in: &catalog, schema: schema)
        if let ordered = indexes.ordered[property] { return ordered }
        let described = schema.entities[entity]?.property(named: property)
        var ordered: [(value: QueryValue, path: DocumentPath)] = []
        ordered.reserveCapacity(indexes.paths.count)
        for path in indexes.paths {
            let content = catalog.content(at: path)
            ordered.append((QueryEvaluation.storedValue(content?[property] ?? .null, as: described), path))
        }
        // Paths are already in store order, so a stable sort by value keeps ties so.
        ordered = ordered.enumerated().sorted { a, b in
            switch a.element.value.sortOrder(b.element.value) {
            case .orderedAscending: true
            case .orderedDescending: false
            case .orderedSame: a.offset < b.offset
            }
        }.map(\.element)
        indexes.ordered[property] = ordered
        entities[entity] = indexes
        return ordered
    }

    /// The entity's indexes, built anew when its documents changed since they were built.
    private mutating func current(_ entity: String, in catalog: inout Catalog, schema: QuerySchema) -> EntityIndexes {
        let generation = catalog.generation(of: entity)
        if let indexes = entities[entity], indexes.generation == generation { return indexes }
        var indexes = EntityIndexes(generation: generation)
        indexes.paths = catalog.paths.filter { $0.entity == entity }.sorted()
        if let described = schema.entities[entity] {
            let declared = Self.declaredIndexes(of: described)
            var values = [[String]: [[QueryValue]: [UUID]]](uniqueKeysWithValues: declared.map { ($0, [:]) })
            var deletedValues = values
            let kinds = declared.map { $0.map { described.property(named: $0) } }
            for path in indexes.paths {
                guard let content = catalog.content(at: path) else { continue }
                let isDeleted = content[ModelDocument.deletedKey] != nil
                for (index, properties) in declared.enumerated() {
                    let key = zip(properties, kinds[index]).map { name, property in
                        QueryEvaluation.storedValue(content[name] ?? .null, as: property)
                    }
                    if isDeleted {
                        deletedValues[properties]![key, default: []].append(path.id)
                    } else {
                        values[properties]![key, default: []].append(path.id)
                    }
                }
            }
            indexes.values = values
            indexes.deletedValues = deletedValues
        }
        entities[entity] = indexes
        return indexes
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

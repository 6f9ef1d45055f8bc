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
        /// Value indexes by their properties: each key (the properties' values, in order)
        /// maps to the identities holding it.
        var values: [[String]: [[QueryValue]: [UUID]]] = [:]
        /// Identities by the day folder they are in, and the days in order.
        var days: [Day: [UUID]]?
        var sortedDays: [Day] = []
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

    /// The identities whose `properties` hold `key`, building the index when the entity
    /// changed since (or has none yet).
    mutating func lookup(entity: String, properties: [String], key: [QueryValue], in catalog: inout Catalog, schema: QuerySchema) -> [UUID] {
        current(entity, in: &catalog, schema: schema).values[properties]?[key] ?? []
    }

    /// The identities in day folders from `first` through `last` (either open), and how
    /// many days that is of how many.
    mutating func documents(entity: String, days range: ClosedRange<Day>, in catalog: inout Catalog, schema: QuerySchema) -> (ids: [UUID], days: Int, of: Int) {
        var indexes = current(entity, in: &catalog, schema: schema)
        if indexes.days == nil {
            var days: [Day: [UUID]] = [:]
            for path in catalog.paths where path.entity == entity { days[path.day, default: []].append(path.id) }
            indexes.days = days
            indexes.sortedDays = days.keys.sorted()
            entities[entity] = indexes
        }
        let sorted = indexes.sortedDays
        let start = sorted.partitioningIndex { $0 >= range.lowerBound }
        let end = sorted.partitioningIndex { $0 > range.upperBound }
        guard start < end else { return ([], 0, sorted.count) }
        let ids = sorted[start..<end].flatMap { indexes.days![$0]! }
        return (ids, end - start, sorted.count)
    }

    /// The entity's indexes, built anew when its documents changed since they were built.
    private mutating func current(_ entity: String, in catalog: inout Catalog, schema: QuerySchema) -> EntityIndexes {
        let generation = catalog.generation(of: entity)
        if let indexes = entities[entity], indexes.generation == generation { return indexes }
        var indexes = EntityIndexes(generation: generation)
        if let described = schema.entities[entity] {
            let declared = Self.declaredIndexes(of: described)
            var values = [[String]: [[QueryValue]: [UUID]]](uniqueKeysWithValues: declared.map { ($0, [:]) })
            let kinds = declared.map { $0.map { described.property(named: $0) } }
            for path in Array(catalog.paths) where path.entity == entity {
                guard let content = catalog.content(at: path) else { continue }
                for (index, properties) in declared.enumerated() {
                    let key = zip(properties, kinds[index]).map { name, property in
                        QueryEvaluation.storedValue(content[name] ?? .null, as: property)
                    }
                    values[properties]![key, default: []].append(path.id)
                }
            }
            indexes.values = values
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

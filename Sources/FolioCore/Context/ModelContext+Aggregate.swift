import Foundation

extension ModelContext {
    /// Summarizes the models a descriptor selects, computed on the documents without
    /// making models: Folio's, as SwiftData has `fetchCount` only.
    ///
    /// ```swift
    /// let minutesByState = try context.aggregate(.sum(\FocusSession.duration), groupedBy: \FocusSession.state)
    /// for row in minutesByState { print(row.group, row.value) }
    /// ```
    /// The descriptor's predicate must translate to a query (`explain(_:)` tells); its
    /// sort, offset and limit are ignored.
    ///
    /// - Throws: a `FolioError`: `.misuse` for a model the container does not know, a predicate
    ///   that does not run on documents, or a key path that is no stored property; otherwise what
    ///   `DocumentStore.aggregate` throws (`.invalidQuery`, `.fileSystem`, `.unsafePath`,
    ///   `.invalidStore`, `.locked`).
    public func aggregate<Model: PersistentModel>(
        _ aggregation: Aggregation<Model>, of descriptor: FetchDescriptor<Model> = FetchDescriptor<Model>(),
        groupedBy groupBy: PartialKeyPath<Model>...
    ) throws -> [QueryAggregate.Row] {
        let entity = try entity(of: Model.self)
        var plain = descriptor
        (plain.sortBy, plain.fetchLimit, plain.fetchOffset) = ([], nil, nil)
        let plan = try fetchPlan(for: plain)
        guard var query = plan.query else {
            throw FolioError.misuse("aggregate needs a predicate that runs on documents: \(plan.fallback ?? "")")
        }
        query.sort = []
        let value = try aggregation.keyPath.map { keyPath throws(FolioError) in
            try propertyExpression(keyPath, in: entity)
        }
        let groups = try groupBy.map { keyPath throws(FolioError) in try propertyExpression(keyPath, in: entity) }
        return try opened.store(of: query.entity).aggregate(
            query, QueryAggregate(aggregation.function, of: value), groupedBy: groups, overlay: plan.overlay)
    }

    /// The property a model's key path names, as a query expression.
    private func propertyExpression(_ keyPath: AnyKeyPath, in entity: Schema.Entity) throws(FolioError)
        -> QueryExpression
    {
        for property in entity.properties {
            switch property {
            case .attribute(let attribute) where attribute.keyPath.value == keyPath: return .property(attribute.name)
            case .relationship(let relationship) where relationship.keyPath.value == keyPath:
                return .property(relationship.name)
            default: continue
            }
        }
        throw .misuse("\(keyPath) is not a stored property of \(entity.name)")
    }
}

/// What `ModelContext.aggregate` computes, on a model's property.
public struct Aggregation<Model: PersistentModel> {
    let function: QueryAggregate.Function
    let keyPath: AnyKeyPath?

    /// How many models.
    public static var count: Aggregation { Aggregation(function: .count, keyPath: nil) }
    /// The sum of a numeric property (`nil`s skipped).
    public static func sum<Value: Numeric>(_ keyPath: KeyPath<Model, Value>) -> Aggregation {
        Aggregation(function: .sum, keyPath: keyPath)
    }
    /// The sum of an optional numeric property, `nil`s skipped.
    public static func sum<Value: Numeric>(_ keyPath: KeyPath<Model, Value?>) -> Aggregation {
        Aggregation(function: .sum, keyPath: keyPath)
    }
    /// The mean of a numeric property (`nil`s skipped), as a double.
    public static func average<Value: Numeric>(_ keyPath: KeyPath<Model, Value>) -> Aggregation {
        Aggregation(function: .average, keyPath: keyPath)
    }
    /// The mean of an optional numeric property, `nil`s skipped, as a double.
    public static func average<Value: Numeric>(_ keyPath: KeyPath<Model, Value?>) -> Aggregation {
        Aggregation(function: .average, keyPath: keyPath)
    }
    /// The least value of a property.
    public static func min<Value: Comparable>(_ keyPath: KeyPath<Model, Value>) -> Aggregation {
        Aggregation(function: .min, keyPath: keyPath)
    }
    /// The least value of an optional property, `nil`s skipped.
    public static func min<Value: Comparable>(_ keyPath: KeyPath<Model, Value?>) -> Aggregation {
        Aggregation(function: .min, keyPath: keyPath)
    }
    /// The greatest value of a property.
    public static func max<Value: Comparable>(_ keyPath: KeyPath<Model, Value>) -> Aggregation {
        Aggregation(function: .max, keyPath: keyPath)
    }
    /// The greatest value of an optional property, `nil`s skipped.
    public static func max<Value: Comparable>(_ keyPath: KeyPath<Model, Value?>) -> Aggregation {
        Aggregation(function: .max, keyPath: keyPath)
    }
}

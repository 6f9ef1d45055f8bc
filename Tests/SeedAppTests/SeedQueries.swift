import Folio
import Foundation
import Testing

extension ModelContext {
    /// Fetches as the seed does, and checks that the query ran on documents (no model
    /// fallback) and found exactly the models the predicate selects when evaluated on
    /// every model: every seed predicate must run on the stored values.
    func fetchOnDocuments<Model: PersistentModel>(
        _ descriptor: FetchDescriptor<Model>, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws -> [Model] {
        let explanation = try explain(descriptor)
        #expect(explanation.fallback == nil, "\(explanation)", sourceLocation: sourceLocation)
        let fetched = try fetch(descriptor)
        var everything = FetchDescriptor<Model>()
        everything.includeDeleted = descriptor.includeDeleted
        let all = try fetch(everything)
        let expected =
            try descriptor.predicate.map { predicate in try all.filter { try predicate.evaluate($0) } } ?? all
        #expect(
            Set(fetched.map(\.persistentModelID)) == Set(expected.map(\.persistentModelID))
                || descriptor.fetchLimit != nil,
            "the documents and the models disagree", sourceLocation: sourceLocation)
        return fetched
    }
}

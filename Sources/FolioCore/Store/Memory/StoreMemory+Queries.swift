// StoreMemory: queries evaluated over the catalog and its indexes.

import Foundation

/// What a query is planned with, read in one take of the mutex: the schema, the calendar
/// and which folders are loaded, so that a fetch of loaded folders takes the mutex again
/// only to run.
struct QueryBasis {
    var schema: QuerySchema
    var calendar: Calendar
    var loadedFolders: Set<String>
    var loadsEverything: Bool

    /// Whether folder `name` was loaded when the basis was read.
    func isLoaded(_ name: String) -> Bool { loadsEverything || loadedFolders.contains(name) }
}

extension StoreMemory {
    /// The schema, the calendar and the loaded folders, read together.
    var queryBasis: QueryBasis {
        locked { state in
            QueryBasis(
                schema: state.querySchema, calendar: state.calendar, loadedFolders: state.folders.loadedFolders,
                loadsEverything: state.folders.loadsEverything)
        }
    }

    /// Hands an evaluation over the catalog, its indexes and the schema to `body`, in one
    /// take of the mutex; what the evaluation decodes and indexes meanwhile is kept.
    func withEvaluation<Result>(_ body: (inout QueryEvaluation) -> Result) -> Result {
        locked { state in
            var evaluation = QueryEvaluation(
                documents: QueryDocuments(catalog: state.catalog, indexes: state.indexes, schema: state.querySchema))
            // The catalog is moved out and back so decoding on first use stays one copy.
            state.catalog = Catalog()
            state.indexes = QueryIndexes()
            defer {
                state.catalog = evaluation.documents.catalog
                state.indexes = evaluation.documents.indexes
            }
            return body(&evaluation)
        }
    }

    /// Records that models were made from these rows of a query's result, every member
    /// decoded, so that models made from them again can decode their values when first read.
    func rememberReadable(rows: [Int], of entity: String, generation: UInt64) {
        locked { $0.indexes.rememberReadable(rows: rows, of: entity, generation: generation) }
    }
}

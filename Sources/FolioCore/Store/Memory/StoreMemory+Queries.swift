// StoreMemory: what queries are planned with, and the catalog and indexes lent to them.

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

    /// Lends the catalog, its indexes and the schema to `body`, in one take of the mutex:
    /// what a query decodes and indexes meanwhile is kept.
    func lendingCatalog<Result>(_ body: (inout Catalog, inout QueryIndexes, QuerySchema) -> Result) -> Result {
        locked { state in body(&state.catalog, &state.indexes, state.querySchema) }
    }

    /// Records that models were made from these rows of a query's result, every member
    /// decoded, so that models made from them again can decode their values when first read.
    func rememberReadable(rows: [Int], of entity: String, generation: UInt64) {
        locked { $0.indexes.rememberReadable(rows: rows, of: entity, generation: generation) }
    }
}

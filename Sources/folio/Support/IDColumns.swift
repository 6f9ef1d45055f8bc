import FolioCore
import FolioJSON
import Foundation

/// The columns of a table that hold documents' ids: `id`, and an entity's to-one
/// relationships, which hold the related document's. A table shows them short, as git
/// shows commits (`0F6C1E2A`, see `DocumentIDs.abbreviations`), for a whole UUID took 36 of
/// a terminal's 80 columns; JSON, NDJSON and CSV keep them whole.
struct IDColumns {
    /// The names of the columns.
    let names: Set<String>
    /// The store whose ids the short ones are unique among.
    let store: DocumentStore

    /// The columns named `names`.
    init(_ names: Set<String>, in store: DocumentStore) {
        (self.names, self.store) = (names, store)
    }

    /// `id` and the entity's to-one relationships.
    init(entity: String, in store: DocumentStore) {
        let relationships = store.describedProperties(of: entity).compactMap { property in
            property.isRelationship && !property.isToMany ? property.name : nil
        }
        self.init(Set(["id"] + relationships), in: store)
    }

    /// The rows' cells with every id of these columns short (`nil` where a cell is not an
    /// id column's UUID); the store's ids are read only when a row has one.
    func shortCells(columns: [String], rows: [[JSONValue]]) -> [[String?]] {
        let positions = columns.indices.filter { names.contains(columns[$0]) }
        func id(_ row: [JSONValue], _ position: Int) -> UUID? {
            guard position < row.count, case .string(let text) = row[position] else { return nil }
            return UUID(uuidString: text)
        }
        let ids = rows.flatMap { row in positions.compactMap { id(row, $0) } }
        let short = ids.isEmpty ? [:] : DocumentIDs.abbreviations(of: ids, in: store)
        return rows.map { row in
            var cells = [String?](repeating: nil, count: row.count)
            for position in positions { cells[position] = id(row, position).flatMap { short[$0] } }
            return cells
        }
    }
}

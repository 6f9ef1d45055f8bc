import FolioCore
import FolioJSON

extension StoredBlob {
    /// The file as one cell of `log`, `diff` or `blame`: its size and git's short id in a
    /// table (`2048 bytes (e4f5a6b)`), an object of both in full in the other formats, so
    /// a script tells it from a string property's value.
    func cell(table: Bool) -> JSONValue {
        let size = size.map { "\($0) bytes" } ?? "missing from the repository"
        guard !table else { return .string("\(size) (\(object.prefix(7)))") }
        return .object(["object": .string(object), "bytes": self.size.map { .integer(Int64($0)) } ?? .null])
    }
}

extension PropertyChange {
    /// The old value as a cell: the member's, or the `.externalStorage` file's.
    func oldCell(table: Bool) -> JSONValue { old ?? oldBlob?.cell(table: table) ?? .null }

    /// The new value as a cell: the member's, or the `.externalStorage` file's.
    func newCell(table: Bool) -> JSONValue { new ?? newBlob?.cell(table: table) ?? .null }
}

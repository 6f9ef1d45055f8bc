import FolioTestSupport
import Foundation
import Testing

/// A soft delete is one transaction in the history, by its author: other processes that
/// find the soft-deleted file afterwards, with a cache from before the delete or none,
/// explain it by that record and add no `"external"` delete.
struct SoftDeleteHistoryTests {
    @Test func aSoftDeleteIsRecordedOnceWhateverReadsTheStoreAfterIt() throws {
        let store = try TimerStore()
        let todo = try store.id(of: "TodoItem", where: "text == \"Run\"")
        let before = try store.folio("history", "--format", "ndjson").output.split(separator: "\n").count
        _ = try store.folio("count", "TodoItem")  // a cache of the folder from before the delete
        #expect(try store.folio("delete", todo).status == 0)
        for command in [["count", "TodoItem"], ["ls", "TodoItem"], ["query", "Timer"], ["check"], ["info"]] {
            _ = try store.folio.run(command)
        }
        let restore = try store.folio("restore", todo)
        #expect(restore.status == 0, "\(restore.errors)")
        _ = try store.folio("count", "TodoItem")
        let lines = try store.folio("history", "--format", "ndjson").output.split(separator: "\n").dropFirst(before)
        #expect(lines.count == 2, "\(lines.joined(separator: "\n"))")
        #expect(lines.allSatisfy { $0.contains(#""author":"folio""#) }, "\(lines.joined(separator: "\n"))")
        #expect(
            lines.first?.contains(#""change":"delete""#) == true && lines.last?.contains(#""change":"insert""#) == true)
    }
}

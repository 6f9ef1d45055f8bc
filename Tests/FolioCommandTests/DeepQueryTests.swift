import FolioTestSupport
import Foundation
import Testing

/// Queries typed to break the parser or the evaluator: each is refused with an error
/// that points at where it goes too deep, or, for chains of && and ||, simply answered.
struct DeepQueryTests {
    @Test func deeplyNestedQueriesAreBadInputNotACrash() throws {
        let store = try TimerStore()
        let queries = [
            String(repeating: "(", count: 600) + "isCompleted" + String(repeating: ")", count: 600),
            String(repeating: "!", count: 5_000) + "isCompleted",
            String(repeating: "-", count: 5_000) + "1 > 0",
            Array(repeating: "1", count: 5_000).joined(separator: " + ") + " > 0",
        ]
        for query in queries {
            for command in ["query", "count"] {
                // `--`, or argument-parser reads the minuses as an option.
                let run = try store.folio(command, "TodoItem", "--", query)
                #expect(run.status == 65, "\(command) \(query.prefix(20))…: \(run.status) \(run.errors.prefix(300))")
                #expect(run.errors.hasPrefix("error: the query"), "\(run.errors.prefix(300))")
            }
        }
        let aggregated = try store.folio("aggregate", "TodoItem", "count", "--where", queries[1])
        #expect(aggregated.status == 65, "\(aggregated.errors.prefix(300))")
    }

    @Test func longChainsOfAndAndOrAreAnswered() throws {
        let store = try TimerStore()
        let terms = (0..<5_000).map { "text != \"\($0)\"" }
        let counted = try store.folio("count", "TodoItem", terms.joined(separator: " && "))
        #expect(counted.status == 0, "\(counted.errors.prefix(300))")
        #expect(counted.output == "2\n")
        let either = try store.folio("count", "TodoItem", terms.joined(separator: " || ") + " || isCompleted")
        #expect(either.output == "2\n")
    }
}

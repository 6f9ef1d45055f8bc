import FolioTestSupport
import Foundation
import Testing

/// `folio aggregate` sums amounts written with cents to their sum in cents, as a person
/// adding them up gets it (`845688.93`, not `845688.9300000002`), and keeps what a plain
/// running sum of doubles loses.
struct DecimalSumTests {
    /// A store of expenses, each an amount (a `Double`), made with `folio init`.
    struct Store {
        /// The folder the store is in, removed when the test is done with it.
        let folder: TemporaryDirectory
        /// The tool, run inside the store.
        let folio: FolioTool
    }

    /// A store holding these amounts, as written.
    static func store(amounts: [String]) throws -> Store {
        let folder = try TemporaryDirectory()
        let schema = #"{"entities": {"Expense": {"properties": [{"name": "amount", "type": "Double"}]}}}"#
        _ = try folder.create("schema.json", contents: Array(schema.utf8))
        let created = try FolioTool(folder: folder.path)("init", "Expenses", "--schema", "schema.json")
        #expect(created.status == 0, "\(created.errors)")
        let folio = FolioTool(folder: folder("Expenses"))
        let lines = amounts.map { #"{"amount": \#($0)}"# }.joined(separator: "\n")
        let file = try folder.create("expenses.ndjson", contents: Array(lines.utf8))
        let imported = try folio("import", "Expense", file)
        #expect(imported.status == 0, "\(imported.errors)")
        return Store(folder: folder, folio: folio)
    }

    @Test func aSumOfAmountsWithCentsIsTheirSumInCents() throws {
        // 2,000 amounts up to 10,000.00, and their sum in whole cents.
        var random = SplitMix64(seed: 39)
        let cents = (0..<2_000).map { _ in Int.random(in: 1...1_000_000, using: &random) }
        let amounts = cents.map { "\($0 / 100).\(String(format: "%02d", $0 % 100))" }
        let total = cents.reduce(0, +)
        let expected = Double("\(total / 100).\(String(format: "%02d", total % 100))")!.description
        // Added as doubles one after another, the amounts come to something else.
        #expect(amounts.map { Double($0)! }.reduce(0, +).description != expected)
        let store = try Self.store(amounts: amounts)
        let run = try store.folio("aggregate", "Expense", "sum", "--of", "amount", "--format", "csv")
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output == "sum(amount),documents\n\(expected),2000\n")
    }

    @Test func aSumAndAnAverageOfTenthsPrintAsWritten() throws {
        let store = try Self.store(amounts: ["0.1", "0.2"])
        let sum = try store.folio("aggregate", "Expense", "sum", "--of", "amount")
        #expect(sum.status == 0, "\(sum.errors)")
        #expect(sum.output == "sum(amount)  documents\n0.3          2\n")
        let average = try store.folio("aggregate", "Expense", "average", "--of", "amount", "--format", "csv")
        #expect(average.output == "average(amount),documents\n0.15,2\n")
    }

    @Test func aSmallAmountBetweenLargeOnesThatCancelIsKept() throws {
        // 1e16 + 1 is 1e16 in a double: a running sum loses the 1, and ends at 0.
        #expect(1e16 + 1 - 1e16 == 0)
        let store = try Self.store(amounts: ["1e16", "1.0", "-1e16"])
        let run = try store.folio("aggregate", "Expense", "sum", "--of", "amount", "--format", "csv")
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output == "sum(amount),documents\n1.0,3\n")
    }
}

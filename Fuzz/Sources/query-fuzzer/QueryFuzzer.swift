import Folio
import Foundation
import FuzzSupport

/// libFuzzer's entry point: reads the input as a query in the text language and checks the oracle.
///
/// Inputs that are not valid UTF-8 are skipped (a query is a `String`). Beyond "no
/// crash, no sanitizer report", every query must satisfy:
///
/// - **Accepted** by the parser: the tree is at most `QueryExpression.maximumDepth`
///   deep, its `queryText` parses again, to an equal tree ("parse, print, parse again:
///   same tree"), and printing that tree gives the same text again.
/// - **Refused**: the error is a `FolioError` of kind `.invalidQuery` with a column inside the query
///   or just past its end (`1...count + 1`, in `Character`s as the lexer counts them)
///   and a message.
///
/// A violation prints what went wrong and calls `abort()`, which libFuzzer reports
/// as a crash and saves the input for.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: size)
    guard let text = String(validating: input, as: UTF8.self) else { return 0 }
    do {
        let tree = try QueryExpression(parsing: text, timeZone: utc)
        QueryOracle.check(tree, parsedFrom: input)
    } catch {
        QueryOracle.check(error, refusing: text, input: input)
    }
    return 0
}

/// The program: libFuzzer, fuzzing `fuzz` (see `Harness.runLibFuzzer`).
@main
enum QueryFuzzer {
    static func main() { harness.runLibFuzzer(fuzz) }
}

let harness = Harness("query-fuzzer")
/// Days such as `@2026-11-01` are midnight in this zone.
let utc = TimeZone(identifier: "UTC")!

/// The properties every query must have, and the report made when one does not.
enum QueryOracle {
    /// Checks that an accepted query is shallow enough, and prints to text that reads back as the same tree.
    static func check(_ tree: QueryExpression, parsedFrom input: UnsafeBufferPointer<UInt8>) {
        let depth = tree.depth
        guard depth <= QueryExpression.maximumDepth else {
            harness.fail(
                "the parser accepted a tree deeper than QueryExpression.maximumDepth", input: input,
                details: [
                    ("depth", "\(depth), limit \(QueryExpression.maximumDepth)")
                ])
        }
        let printed = tree.queryText
        let reread: QueryExpression
        do {
            reread = try QueryExpression(parsing: printed, timeZone: utc)
        } catch {
            harness.fail(
                "the parser refused the printed query", input: input,
                details: [
                    ("printed", Harness.escaped(printed)),
                    ("error", error.description),
                ])
        }
        guard reread == tree else {
            harness.fail(
                "parse, print, parse again gave a different tree", input: input,
                details: [
                    ("printed", Harness.escaped(printed)),
                    ("tree", structure(of: tree)),
                    ("reread", structure(of: reread)),
                ])
        }
        let reprinted = reread.queryText
        guard reprinted == printed else {
            harness.fail(
                "printing the re-read tree gave different text (printed text is not a fixed point)", input: input,
                details: [
                    ("printed", Harness.escaped(printed)),
                    ("reprinted", Harness.escaped(reprinted)),
                ])
        }
    }

    /// A tree's cases and values, as `dump` shows them (its `description` is the printed query).
    private static func structure(of tree: QueryExpression) -> String {
        var text = ""
        dump(tree, to: &text, maxDepth: 40, maxItems: 200)
        return "\n" + text
    }

    /// Checks that a refusal is an `invalidQuery` that points into the query and says why.
    static func check(_ error: FolioError, refusing text: String, input: UnsafeBufferPointer<UInt8>) {
        guard error.kind == .invalidQuery, let query = error.query, let column = error.location?.column else {
            harness.fail(
                "the parser threw something other than FolioError.invalidQuery with the query and its column",
                input: input, details: [("error", error.description)])
        }
        let message = error.reason
        guard query == text else {
            harness.fail(
                "the error quotes a different query", input: input, details: [("quoted", Harness.escaped(query))])
        }
        guard (1...(text.count + 1)).contains(column), !message.isEmpty else {
            harness.fail(
                "the error's column is outside the query, or it has no message", input: input,
                details: [
                    ("column", "\(column) of a query of \(text.count) characters"),
                    ("message", Harness.escaped(message)),
                ])
        }
    }
}

import FolioJSON
import FuzzSupport

/// libFuzzer's entry point: runs one input through the reader and checks the oracle.
///
/// Beyond "no crash, no sanitizer report", every input must satisfy:
///
/// - **Accepted** by the reader: the writer writes the value, reading those bytes
///   gives an equal value, and writing that value again gives the same bytes
///   (canonical text is a fixed point of read-then-write).
/// - **Rejected** by the reader: the `JSONError` carries a location with a 1-based
///   line and column (both >= 1) and a byte offset within the input (<= its size).
///
/// A violation prints what went wrong and calls `abort()`, which libFuzzer reports
/// as a crash and saves the input for.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: size)
    do {
        let value = try JSONReader().read(input)
        RoundTripOracle.check(value, readFrom: input)
    } catch {
        RoundTripOracle.check(error, rejecting: input)
    }
    return 0
}

/// The program: libFuzzer, fuzzing `fuzz` (see `Harness.runLibFuzzer`).
@main
enum JSONReaderFuzzer {
    static func main() { harness.runLibFuzzer(fuzz) }
}

let harness = Harness("json-reader-fuzzer")

/// The properties every input must have, and the report made when one does not.
enum RoundTripOracle {
    /// Checks that an accepted value writes, reads back equal, and rewrites to identical bytes.
    static func check(_ value: JSONValue, readFrom input: UnsafeBufferPointer<UInt8>) {
        let written: [UInt8]
        do {
            written = try JSONWriter().write(value)
        } catch {
            harness.fail(
                "the writer refused a value the reader accepted", input: input,
                details: [
                    ("error", error.description),
                    ("value", "\(value)"),
                ])
        }

        let reread: JSONValue
        do {
            reread = try JSONReader().read(written)
        } catch {
            harness.fail(
                "the reader rejected the writer's output", input: input,
                details: [
                    ("error", error.description),
                    ("written", Harness.escaped(written)),
                ])
        }
        guard reread == value else {
            harness.fail(
                "reading the written bytes gave a different value", input: input,
                details: [
                    ("value", "\(value)"),
                    ("reread", "\(reread)"),
                    ("written", Harness.escaped(written)),
                ])
        }

        let rewritten: [UInt8]
        do {
            rewritten = try JSONWriter().write(reread)
        } catch {
            harness.fail(
                "the writer refused the re-read value", input: input,
                details: [
                    ("error", error.description),
                    ("written", Harness.escaped(written)),
                ])
        }
        guard rewritten == written else {
            harness.fail(
                "writing the re-read value gave different bytes (canonical text is not idempotent)", input: input,
                details: [
                    ("written", Harness.escaped(written)),
                    ("rewritten", Harness.escaped(rewritten)),
                ])
        }
    }

    /// Checks that a rejection points at a real place in the input.
    static func check(_ error: JSONError, rejecting input: UnsafeBufferPointer<UInt8>) {
        guard let location = error.location else {
            harness.fail("the reader's error has no location", input: input, details: [("error", error.description)])
        }
        guard location.line >= 1, location.column >= 1, location.offset >= 0, location.offset <= input.count else {
            harness.fail(
                "the reader's error location is out of range", input: input,
                details: [
                    (
                        "location",
                        "line \(location.line), column \(location.column), offset \(location.offset) of \(input.count) bytes"
                    ),
                    ("error", error.description),
                ])
        }
    }
}

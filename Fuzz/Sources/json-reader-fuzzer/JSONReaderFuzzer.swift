#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FolioJSON

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
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: size)
    do {
        let value = try JSONReader().read(input)
        RoundTripOracle.check(value, readFrom: input)
    } catch {
        RoundTripOracle.check(error, rejecting: input)
    }
    return 0
}

/// libFuzzer's one-time setup hook: makes sure crashes reach libFuzzer.
///
/// On Linux the Swift runtime's backtracer is on by default and installs its own
/// handlers for `SIGABRT`, `SIGILL`, `SIGSEGV` and the like when the program loads.
/// libFuzzer leaves a handler that is already installed in place, so a Swift trap
/// or an oracle's `abort()` would print a Swift backtrace and end the process
/// without libFuzzer saving the input (and the backtracer can be left hanging).
/// Unless `SWIFT_BACKTRACE` already turns it off, the program therefore runs itself
/// again, with the same arguments, with the backtracer off.
@_cdecl("LLVMFuzzerInitialize")
public func initialize(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>
) -> CInt {
    #if os(Linux)
    let setting = getenv("SWIFT_BACKTRACE").map { String(cString: $0) } ?? ""
    if !setting.contains("enable=no") {
        setenv("SWIFT_BACKTRACE", "enable=no", 1)
        execv("/proc/self/exe", argv.pointee)
        perror("json-reader-fuzzer: cannot re-run with SWIFT_BACKTRACE=enable=no; set it yourself")
    }
    #endif
    return 0
}

/// The properties every input must have, and the report made when one does not.
enum RoundTripOracle {
    /// Checks that an accepted value writes, reads back equal, and rewrites to identical bytes.
    static func check(_ value: JSONValue, readFrom input: UnsafeBufferPointer<UInt8>) {
        let written: [UInt8]
        do {
            written = try JSONWriter().write(value)
        } catch {
            fail("the writer refused a value the reader accepted", input: input, details: [
                ("error", error.description),
                ("value", "\(value)"),
            ])
        }

        let reread: JSONValue
        do {
            reread = try JSONReader().read(written)
        } catch {
            fail("the reader rejected the writer's output", input: input, details: [
                ("error", error.description),
                ("written", escaped(written)),
            ])
        }
        guard reread == value else {
            fail("reading the written bytes gave a different value", input: input, details: [
                ("value", "\(value)"),
                ("reread", "\(reread)"),
                ("written", escaped(written)),
            ])
        }

        let rewritten: [UInt8]
        do {
            rewritten = try JSONWriter().write(reread)
        } catch {
            fail("the writer refused the re-read value", input: input, details: [
                ("error", error.description),
                ("written", escaped(written)),
            ])
        }
        guard rewritten == written else {
            fail("writing the re-read value gave different bytes (canonical text is not idempotent)", input: input, details: [
                ("written", escaped(written)),
                ("rewritten", escaped(rewritten)),
            ])
        }
    }

    /// Checks that a rejection points at a real place in the input.
    static func check(_ error: JSONError, rejecting input: UnsafeBufferPointer<UInt8>) {
        guard let location = error.location else {
            fail("the reader's error has no location", input: input, details: [("error", error.description)])
        }
        guard location.line >= 1, location.column >= 1, location.offset >= 0, location.offset <= input.count else {
            fail("the reader's error location is out of range", input: input, details: [
                ("location", "line \(location.line), column \(location.column), offset \(location.offset) of \(input.count) bytes"),
                ("error", error.description),
            ])
        }
    }

    /// Reports a violation on standard error and aborts, so libFuzzer records the input.
    private static func fail(_ problem: String, input: UnsafeBufferPointer<UInt8>, details: [(String, String)]) -> Never {
        var report = "\n==== json-reader-fuzzer: oracle violation: \(problem)\n"
        report += "input (\(input.count) bytes): \(escaped(input))\n"
        for (label, text) in details { report += "\(label): \(text)\n" }
        report.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
        abort()
    }

    /// Bytes as a Swift-like string literal: printable ASCII as is, the rest as `\xNN`,
    /// cut off after `limit` bytes so a report stays readable.
    static func escaped(_ bytes: some Collection<UInt8>, limit: Int = 2048) -> String {
        let hexDigits = Array("0123456789abcdef")
        var text = "\""
        for byte in bytes.prefix(limit) {
            switch byte {
            case UInt8(ascii: "\""): text += "\\\""
            case UInt8(ascii: "\\"): text += "\\\\"
            case UInt8(ascii: "\n"): text += "\\n"
            case 0x20...0x7E: text.unicodeScalars.append(Unicode.Scalar(byte))
            default: text += "\\x" + String(hexDigits[Int(byte >> 4)]) + String(hexDigits[Int(byte & 0xF)])
            }
        }
        text += "\""
        if bytes.count > limit { text += "… (\(bytes.count - limit) more bytes)" }
        return text
    }
}

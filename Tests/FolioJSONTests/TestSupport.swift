import Foundation

@testable import FolioJSON

/// The fixtures folder checked in beside the tests.
let fixturesURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

/// Reads text, returning the error (if any) instead of throwing, for tests that expect failures.
func readError(_ text: String, reader: JSONReader = JSONReader()) -> JSONError? {
    do {
        _ = try reader.read(text)
        return nil
    } catch {
        return error
    }
}

func readError(_ bytes: [UInt8], reader: JSONReader = JSONReader()) -> JSONError? {
    do {
        _ = try reader.read(bytes)
        return nil
    } catch {
        return error
    }
}

/// The canonical text of a value, for tests where writing cannot fail.
func canonical(_ value: JSONValue) throws -> String {
    try JSONWriter().string(for: value)
}

/// The name of an error kind's case, without payload: "duplicateKey".
func caseName(_ kind: JSONError.Kind) -> String {
    let text = String(describing: kind)
    return String(text.prefix { $0 != "(" })
}

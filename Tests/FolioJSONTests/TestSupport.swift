import Foundation
@testable import FolioJSON

/// A small, fast, seedable generator, so a failing property test can be replayed from its seed.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

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

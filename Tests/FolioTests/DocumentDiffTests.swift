@testable import Folio
import FolioJSON
import FolioTestSupport
import Foundation
import Testing

/// The pieces of a diff that git itself prints: blob ids, checked against published SHA-1
/// vectors and against real git (a scratch repository, configuration isolated).
struct DocumentDiffTests {
    static func json(_ value: JSONValue) -> [UInt8] {
        // The test's own literals are always writable.
        try! JSONWriter().write(value)
    }

    /// A model document with nested objects and an array of similar objects.
    static let habit: JSONObject = [
        "$entity": "Habit",
        "$version": "1.0.0",
        "name": "Read",
        "createdAt": "2026-11-22T09:30:00Z",
        "minutes": 20,
        "goal": ["perWeek": 5, "days": ["Mon", "Wed", "Fri"], "strict": false],
        "reminders": [
            ["hour": 7, "minute": 30, "enabled": true],
            ["hour": 12, "minute": 0, "enabled": true],
            ["hour": 21, "minute": 15, "enabled": false],
        ],
        "notes": "One chapter a day",
        "archived": false,
    ]

    // MARK: Blob ids

    @Test func sha1MatchesThePublishedTestVectors() {
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
        #expect(hex(SHA1.digest([])) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(hex(SHA1.digest(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(
            hex(SHA1.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        #expect(hex(SHA1.digest([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
        // Fed in pieces of every size from 1 to 99, across block boundaries.
        let message = (0..<4950).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var pieces = SHA1()
        var start = 0
        for size in 1..<100 {
            pieces.update(message[start..<start + size])
            start += size
        }
        #expect(pieces.finish() == SHA1.digest(message))
    }

    @Test func blobIDsAreWhatGitHashObjectPrints() throws {
        let repository = try GitScratchRepository()
        var contents: [[UInt8]] = [[], Array("hello\n".utf8), Array("Évora ☕️\n".utf8), Self.json(.object(Self.habit))]
        for size in [45, 46, 55, 56, 57, 63, 64, 65, 119, 120, 128, 4097] {
            contents.append((0..<size).map { UInt8(truncatingIfNeeded: $0 * 7 + 3) })
        }
        for (index, content) in contents.enumerated() { try repository.write("file\(index)", content) }
        let printed = String(decoding: try repository.git(["hash-object"] + contents.indices.map { "file\($0)" }), as: UTF8.self)
        #expect(printed.split(separator: "\n").map(String.init) == contents.map { GitBlobID(content: $0).hex })
        #expect(GitBlobID(content: []).abbreviated(7) == "e69de29")
    }
}

import FolioJSON
import FolioTestSupport
import Foundation
import Testing

@testable import FolioCore

/// `DocumentDiff` prints what `git diff` prints, byte for byte: every case here is run
/// through real git (a scratch repository, configuration isolated) and compared.
struct DocumentDiffTests {
    /// One file's change: where it was and what it held, where it is and what it holds.
    struct FileChange {
        var oldPath: String
        var newPath: String
        var old: [UInt8]?
        var new: [UInt8]?

        init(_ path: String, old: [UInt8]?, new: [UInt8]?) {
            (oldPath, newPath, self.old, self.new) = (path, path, old, new)
        }

        init(moving oldPath: String, to newPath: String, old: [UInt8], new: [UInt8]) {
            (self.oldPath, self.newPath, self.old, self.new) = (oldPath, newPath, old, new)
        }
    }

    /// What `git diff` prints after the change: old contents committed, then the work tree
    /// changed, new files announced with `git add --intent-to-add`. With `staged`, also checks
    /// that `git diff --cached` after `git add -A` prints the same.
    static func gitDiff(_ changes: [FileChange], staged: Bool = false) throws -> [UInt8] {
        let repository = try GitScratchRepository()
        for change in changes {
            if let old = change.old { try repository.write(change.oldPath, old) }
        }
        try repository.commitAll()
        for change in changes where change.old != nil && (change.new == nil || change.oldPath != change.newPath) {
            try repository.remove(change.oldPath)
        }
        var added: [String] = []
        for change in changes {
            guard let new = change.new else { continue }
            try repository.write(change.newPath, new)
            if change.old == nil || change.oldPath != change.newPath { added.append(change.newPath) }
        }
        if !added.isEmpty { try repository.git(["add", "--intent-to-add", "--"] + added) }
        let printed = try repository.git("diff")
        if staged {
            try repository.git("add", "-A")
            let cached = try repository.git("diff", "--cached")
            #expect(cached == printed, "git diff --cached after git add -A differs from git diff with intent-to-add")
        }
        return printed
    }

    /// The diffs `DocumentDiff` makes for the changes, in git's order.
    static func documentDiffs(_ changes: [FileChange]) -> [DocumentDiff] {
        var diffs: [DocumentDiff] = []
        for change in changes {
            if change.oldPath != change.newPath, let old = change.old, let new = change.new {
                if let rename = DocumentDiff(renaming: change.oldPath, to: change.newPath, old: old, new: new) {
                    diffs.append(rename)
                } else {
                    diffs.append(DocumentDiff(path: change.oldPath, old: old, new: nil))
                    diffs.append(DocumentDiff(path: change.newPath, old: nil, new: new))
                }
            } else {
                diffs.append(DocumentDiff(path: change.newPath, old: change.old, new: change.new))
            }
        }
        return DocumentDiff.inGitOrder(diffs).filter { !$0.isEmpty }
    }

    /// Git's output cut into one piece per file, at each `diff --git` line.
    static func filePieces(_ output: [UInt8]) -> [[UInt8]] {
        let marker = Array("diff --git ".utf8)
        var pieces: [[UInt8]] = []
        var lineStart = 0
        for index in output.indices where index == lineStart {
            if output[index...].starts(with: marker) { pieces.append([]) }
            if let end = output[index...].firstIndex(of: UInt8(ascii: "\n")) {
                lineStart = end + 1
            } else {
                lineStart = output.count
            }
            if pieces.isEmpty { pieces.append([]) }
            pieces[pieces.count - 1].append(contentsOf: output[index..<lineStart])
        }
        return pieces
    }

    /// Compares with git file by file, expecting every file to match; returns how many did, of how many.
    @discardableResult
    static func expectSameAsGit(
        _ changes: [FileChange], staged: Bool = false, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws -> (matched: Int, total: Int) {
        let theirs = filePieces(try gitDiff(changes, staged: staged))
        let ours = documentDiffs(changes).map(\.bytes)
        #expect(
            ours.count == theirs.count, "git shows \(theirs.count) files, DocumentDiff \(ours.count)",
            sourceLocation: sourceLocation)
        var matched = 0
        for (mine, git) in zip(ours, theirs) {
            if mine == git {
                matched += 1
            } else {
                let text = String(decoding: mine, as: UTF8.self)
                let gitText = String(decoding: git, as: UTF8.self)
                #expect(
                    mine == git, "DocumentDiff printed:\n\(text)\ngit diff printed:\n\(gitText)",
                    sourceLocation: sourceLocation)
            }
        }
        return (matched, theirs.count)
    }

    static func json(_ value: JSONValue) -> [UInt8] {
        // The test's own literals are always writable.
        try! JSONWriter().write(value)
    }

    static let path = "Habit/2026/11/22/E621E1F8-C36C-495A-93FC-0C247A3E6E5F.json"

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

    /// `habit` changed by `edit`, as an old and new file at `path`.
    static func habitChange(_ edit: (inout JSONObject) -> Void) -> FileChange {
        var changed = habit
        edit(&changed)
        return FileChange(path, old: json(.object(habit)), new: json(.object(changed)))
    }

    /// Sets a value at a key path inside nested objects.
    static func set(_ object: inout JSONObject, _ keys: [String], _ value: JSONValue?) {
        guard keys.count > 1 else {
            object[keys[0]] = value
            return
        }
        var child = object[keys[0]]?.objectValue ?? [:]
        set(&child, Array(keys.dropFirst()), value)
        object[keys[0]] = .object(child)
    }

    // MARK: Blob ids

    @Test func sha1MatchesThePublishedTestVectors() {
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
        #expect(hex(SHA1.digest([])) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(hex(SHA1.digest(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(
            hex(SHA1.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        #expect(
            hex(SHA1.digest([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)))
                == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
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
        let printed = String(
            decoding: try repository.git(["hash-object"] + contents.indices.map { "file\($0)" }), as: UTF8.self)
        #expect(printed.split(separator: "\n").map(String.init) == contents.map { GitBlobID(content: $0).hex })
        #expect(GitBlobID(content: []).abbreviated(7) == "e69de29")
    }

    @Test func abbreviationGrowsWithThePackedObjectCountAsGitsDoes() {
        #expect(DocumentDiff.abbreviation(packedObjectCount: 0) == 7)
        #expect(DocumentDiff.abbreviation(packedObjectCount: 16_383) == 7)
        #expect(DocumentDiff.abbreviation(packedObjectCount: 16_384) == 8)
        #expect(DocumentDiff.abbreviation(packedObjectCount: 65_535) == 8)
        #expect(DocumentDiff.abbreviation(packedObjectCount: 65_536) == 9)
        #expect(DocumentDiff.abbreviation(packedObjectCount: 1_000_000) == 10)
    }

    // MARK: Edits of one document

    @Test func anAddedMemberIsDiffedAsGitDoes() throws {
        try Self.expectSameAsGit(
            [
                Self.habitChange { $0.insert("green", forKey: "color", at: 4) },
                Self.habitChange { $0["streak"] = 3 },
            ].enumerated().map { index, change in
                var change = change
                change.oldPath = "Habit/\(index).json"
                change.newPath = change.oldPath
                return change
            })
    }

    @Test func aRemovedMemberIsDiffedAsGitDoes() throws {
        try Self.expectSameAsGit([Self.habitChange { $0["minutes"] = nil }])
        try Self.expectSameAsGit([Self.habitChange { $0["archived"] = nil }])
    }

    @Test func aRenamedKeyIsDiffedAsGitDoes() throws {
        try Self.expectSameAsGit([
            Self.habitChange { habit in
                let value = habit.removeValue(forKey: "notes")!
                habit.insert(value, forKey: "note", at: 7)
            }
        ])
    }

    @Test func aChangedValueIsDiffedAsGitDoes() throws {
        try Self.expectSameAsGit([Self.habitChange { $0["name"] = "Read more" }])
        try Self.expectSameAsGit([Self.habitChange { $0["archived"] = true }])
    }

    @Test func nestedObjectsAndArraysAreDiffedAsGitDoes() throws {
        try Self.expectSameAsGit([Self.habitChange { Self.set(&$0, ["goal", "perWeek"], 6) }])
        try Self.expectSameAsGit([Self.habitChange { Self.set(&$0, ["goal", "days"], ["Mon", "Tue", "Wed", "Fri"]) }])
        try Self.expectSameAsGit([Self.habitChange { Self.set(&$0, ["goal", "window"], ["from": 6, "to": 9]) }])
        try Self.expectSameAsGit([Self.habitChange { $0["reminders"] = [] }])
        try Self.expectSameAsGit([Self.habitChange { $0["goal"] = nil }])
    }

    @Test func changesFarApartMakeSeparateHunks() throws {
        var long = Self.habit
        for index in 0..<20 { long["extra\(index)"] = .string("value \(index)") }
        var changed = long
        changed["name"] = "Write"
        changed["extra17"] = "changed"
        let change = FileChange(Self.path, old: Self.json(.object(long)), new: Self.json(.object(changed)))
        try Self.expectSameAsGit([change])
        let text = Self.documentDiffs([change])[0].text
        #expect(text.components(separatedBy: "\n@@ ").count == 3)
    }

    @Test func changesCloseTogetherShareOneHunk() throws {
        // Line 4 and line 11 of the document: six unchanged lines between them still make one hunk,
        // seven (lines 4 and 12) make two.
        let close = Self.habitChange { habit in
            habit["name"] = "Write"
            Self.set(&habit, ["goal", "days"], ["Mon", "Thu", "Fri"])
        }
        let apart = Self.habitChange { habit in
            habit["name"] = "Write"
            Self.set(&habit, ["goal", "days"], ["Mon", "Wed", "Sat"])
        }
        try Self.expectSameAsGit([close])
        try Self.expectSameAsGit([apart])
        #expect(Self.documentDiffs([close])[0].text.components(separatedBy: "\n@@ ").count == 2)
        #expect(Self.documentDiffs([apart])[0].text.components(separatedBy: "\n@@ ").count == 3)
    }

    @Test func anUnchangedFileHasAnEmptyDiff() {
        let bytes = Self.json(.object(Self.habit))
        #expect(DocumentDiff(path: Self.path, old: bytes, new: bytes).isEmpty)
        #expect(DocumentDiff(path: Self.path, old: nil, new: nil).isEmpty)
    }

    // MARK: Created and deleted files

    /// (Created and deleted files go to separate repositories: git would show a deleted
    /// file and a created one with similar content as a rename.)
    @Test func newAndDeletedFilesAreDiffedAsGitDoes() throws {
        try Self.expectSameAsGit([
            FileChange("Habit/new.json", old: nil, new: Self.json(.object(Self.habit))),
            FileChange("empty-new", old: nil, new: []),
            FileChange("one-line", old: nil, new: Array("{}".utf8)),
        ])
        try Self.expectSameAsGit([
            FileChange("Note/gone.json", old: Self.json(["$entity": "Note", "text": "bye"]), new: nil),
            FileChange("z-empty-gone", old: [], new: nil),
        ])
    }

    // MARK: Final newlines

    @Test func aMissingFinalNewlineIsMarkedAsGitMarksIt() throws {
        let full = Self.json(.object(Self.habit))
        let cut = Array(full.dropLast())
        var written = Self.habit
        written["name"] = "Write"
        var archived = Self.habit
        archived["archived"] = true
        try Self.expectSameAsGit([
            FileChange("a-drops-newline", old: full, new: cut),
            FileChange("b-gains-newline", old: cut, new: full),
            FileChange("c-both-without", old: cut, new: Array(Self.json(.object(written)).dropLast())),
            FileChange("d-edit-before-end", old: cut, new: Array(Self.json(.object(archived)).dropLast())),
            FileChange("e-last-line-changed", old: Array("a\nb\nc".utf8), new: Array("a\nb\nd".utf8)),
            FileChange("f-appended", old: Array("a\nb\nc".utf8), new: Array("a\nb\nc\nd\n".utf8)),
            FileChange("g-only-line", old: Array("x".utf8), new: Array("y".utf8)),
        ])
        try Self.expectSameAsGit([FileChange("new-without", old: nil, new: cut)])
        try Self.expectSameAsGit([FileChange("gone-without", old: cut, new: nil)])
    }

    // MARK: Sliders

    /// Adding or removing one of several similar objects leaves git a choice of where the
    /// change goes (`},` and `{` repeat); the indent heuristic and xdiff's sliding decide.
    @Test func similarArrayElementsSlideAsGitSlidesThem() throws {
        let item: JSONValue = ["kind": "step", "done": false]
        var changes: [FileChange] = []
        for count in 1...4 {
            let items = [JSONValue](repeating: item, count: count)
            // The same object again, one that differs in its first member, one in its last.
            for (variant, added) in [item, ["kind": "stop", "done": false], ["kind": "step", "done": true]].enumerated()
            {
                for position in 0...count {
                    var more = items
                    more.insert(added, at: position)
                    let name = "\(count)-\(variant)-\(position)"
                    let base: JSONObject = [
                        "$entity": "Errand", "title": "Shop", "steps": .array(items), "done": false,
                    ]
                    var grown = base
                    grown["steps"] = .array(more)
                    changes.append(
                        FileChange("grow-" + name, old: Self.json(.object(base)), new: Self.json(.object(grown))))
                    changes.append(
                        FileChange("shrink-" + name, old: Self.json(.object(grown)), new: Self.json(.object(base))))
                    var nested = JSONObject()
                    nested["$entity"] = "Errand"
                    nested["plan"] = ["steps": .array(items), "other": .array(items)]
                    var nestedGrown = nested
                    Self.set(&nestedGrown, ["plan", position % 2 == 0 ? "steps" : "other"], .array(more))
                    changes.append(
                        FileChange(
                            "nested-" + name, old: Self.json(.object(nested)), new: Self.json(.object(nestedGrown))))
                }
            }
        }
        // A member holding such an array added after, or before, another like it.
        let pair: JSONValue = [["a": 1, "b": ["c": 2]], ["a": 1, "b": ["c": 2]]]
        changes.append(FileChange("between", old: Self.json(["x": pair]), new: Self.json(["x": pair, "y": pair])))
        changes.append(FileChange("before", old: Self.json(["y": pair]), new: Self.json(["x": pair, "y": pair])))
        try Self.expectSameAsGit(changes)
    }

    // MARK: The text after @@

    /// Git ends each `@@` line with the nearest line above the hunk that starts with a
    /// letter, `_` or `$` (never a line of canonical JSON, whose only unindented lines are
    /// `{` and `}`), cut to 80 bytes, even inside a UTF-8 character, which git then drops.
    @Test func functionTextAfterTheHunkHeaderIsGits() throws {
        var old: [String] = []
        old.append("func first() {")
        for index in 0..<12 { old.append("    line \(index)") }
        old.append("_private: " + String(repeating: "x", count: 100))
        for index in 0..<12 { old.append("    body \(index)") }
        old.append("$dollar   \t ")
        for index in 0..<12 { old.append("    more \(index)") }
        old.append(String(repeating: "é", count: 39) + "abc")  // cut after "ab"
        for index in 0..<12 { old.append("    middle \(index)") }
        old.append(String(repeating: "a", count: 79) + "é tail")  // cut inside "é", which git then drops
        for index in 0..<12 { old.append("    last \(index)") }
        var new = old
        for index in [5, 20, 33, 45, 58] { new[index] += " changed" }
        let text = { (lines: [String]) in Array((lines.joined(separator: "\n") + "\n").utf8) }
        try Self.expectSameAsGit([FileChange("notes.txt", old: text(old), new: text(new))])
        let json = Self.habitChange { $0["name"] = "Write" }
        try Self.expectSameAsGit([json])
        #expect(Self.documentDiffs([json])[0].text.contains("@@ -1,7 +1,7 @@\n"))
    }

    // MARK: Paths and binary files

    @Test func pathsAreQuotedAsGitQuotesThem() throws {
        let old = Self.json(.object(Self.habit))
        var changed = Self.habit
        changed["name"] = "Write"
        let new = Self.json(.object(changed))
        try Self.expectSameAsGit([
            FileChange("with space/Café.json", old: old, new: new),
            FileChange("quote\"and\\back.json", old: old, new: new),
            FileChange("tab\there.json", old: nil, new: new),
            FileChange("Zürich new.json", old: nil, new: new),
        ])
    }

    @Test func binaryFilesAreReportedAsGitReportsThem() throws {
        try Self.expectSameAsGit([
            FileChange("blob.bin", old: [1, 0, 2], new: [1, 0, 3]),
            FileChange("new.bin", old: nil, new: [0, 0]),
            FileChange("text-to-binary", old: Array("a\n".utf8), new: [0]),
        ])
    }

    // MARK: Renames

    /// A renamed entity moves its documents to another folder and changes their `$entity`:
    /// git shows a rename with its similarity index, then the hunks; an unchanged file's rename
    /// has no `index` line and no hunks. A tiny document with one line changed keeps less than
    /// half its bytes, and git shows it deleted and added instead, as `DocumentDiff` does.
    @Test func aMovedAndEditedDocumentIsShownAsGitsRename() throws {
        let old = Self.json(.object(Self.habit))
        var routine = Self.habit
        routine["$entity"] = "Routine"
        var edited = routine
        edited["minutes"] = 25
        let file = "2026/11/22/E621E1F8-C36C-495A-93FC-0C247A3E6E5F.json"
        let changes = [
            FileChange(moving: "Habit/" + file, to: "Routine/" + file, old: old, new: Self.json(.object(edited))),
            FileChange(
                moving: "Habit/2026/11/23/unchanged.json", to: "Routine/2026/11/23/unchanged.json", old: old, new: old),
            FileChange(
                moving: "Habit/2026/11/24/tiny.json", to: "Routine/2026/11/24/tiny.json", old: Self.json(["a": 1]),
                new: Self.json(["a": 1, "b": 2])),
            FileChange(
                moving: "Old/x.json", to: "New/y.json", old: Array("1\n2\n3\n4\n".utf8), new: Array("9\n8\n7\n6\n".utf8)
            ),
        ]
        try Self.expectSameAsGit(changes)
        let diffs = Self.documentDiffs(changes)
        #expect(diffs.contains { $0.change == .renamed(from: "Habit/" + file, similarity: 92) })
        #expect(diffs.contains { $0.change == .renamed(from: "Habit/2026/11/23/unchanged.json", similarity: 100) })
        #expect(
            DocumentDiff(
                renaming: "Old/x.json", to: "New/y.json", old: Array("1\n2\n3\n4\n".utf8),
                new: Array("9\n8\n7\n6\n".utf8)) == nil)
    }

    // MARK: Random documents

    /// Hundreds of random documents, each edited a few times at random depths (and one in
    /// ten a dozen times), plus a few larger ones edited hundreds of times, diffed by git in
    /// one repository and compared file by file. `FOLIO_DIFF_SEED` picks other documents.
    @Test func randomEditsOfRandomDocumentsAreDiffedAsGitDoes() throws {
        let seed = ProcessInfo.processInfo.environment["FOLIO_DIFF_SEED"].flatMap { UInt64($0) } ?? 2026
        var random = RandomDocuments(seed: seed)
        var changes: [FileChange] = []
        for index in 0..<400 {
            var document = random.document(size: 4 + random.dice.roll(12))
            let old = Self.json(document)
            for _ in 0..<(1 + random.dice.roll(index % 10 == 0 ? 12 : 4)) { random.edit(&document) }
            changes.append(FileChange(String(format: "Doc/%04d.json", index), old: old, new: Self.json(document)))
        }
        for index in 0..<6 {
            var document = JSONValue.object(
                JSONObject((0..<40).map { ("part\($0)", .object(random.object(depth: 1))) }))
            for _ in 0..<30 { random.edit(&document) }
            let old = Self.json(document)
            for _ in 0..<(100 * (index + 1)) { random.edit(&document) }
            changes.append(FileChange("Large/\(index).json", old: old, new: Self.json(document)))
        }
        let result = try Self.expectSameAsGit(changes, staged: true)
        #expect(result.matched == result.total, "seed \(seed): \(result.matched) of \(result.total) files match git")
        print(
            "DocumentDiff random edits, seed \(seed): \(result.matched) of \(result.total) files byte-identical to git diff"
        )
    }

    /// Large rewrites, where xdiff's shortcuts decide the result: blocks of a long array moved
    /// around (the search passes its cost limit and takes long diagonals as splits), and
    /// objects whose values are all replaced but for a repeated line (that line, matched
    /// too often and surrounded by unmatched lines, is set aside before the search).
    @Test func largeRewritesAreDiffedAsGitDoes() throws {
        var dice = RandomDocuments.Dice(state: 5)
        var changes: [FileChange] = []
        for round in 0..<6 {
            let count = 150 + 100 * round
            let items: [JSONValue] = (0..<count).map { index in
                [
                    "name": .string("item \(index)"), "position": .integer(Int64(index % 7)),
                    "done": .bool(index % 3 == 0),
                ]
            }
            var moved = items
            for _ in 0..<(5 + 3 * round) {
                let length = 1 + dice.roll(30)
                let start = dice.roll(moved.count - length)
                let block = Array(moved[start..<start + length])
                moved.removeSubrange(start..<start + length)
                moved.insert(contentsOf: block, at: dice.roll(moved.count + 1))
            }
            changes.append(
                FileChange(
                    "moved-\(round).json", old: Self.json(["items": .array(items)]),
                    new: Self.json(["items": .array(moved)])))

            var rewritten = items
            for index in rewritten.indices where dice.chance(20 + 15 * round) {
                var object = JSONObject(
                    (0..<(4 + dice.roll(12))).map { ("field\($0)", .string("new \(round) \(index) \($0)")) })
                object["done"] = false
                rewritten[index] = .object(object)
            }
            changes.append(
                FileChange(
                    "rewritten-\(round).json", old: Self.json(["items": .array(items)]),
                    new: Self.json(["items": .array(rewritten)])))
        }
        // A document long enough (36,000 lines) for the cost limit to pass 256, with few
        // changes in its first half and every two blocks of ten objects swapped in its
        // second: past a cost of 256 the search takes a run of 20 equal lines far from
        // the corner as its split.
        let items: [JSONValue] = (0..<9000).map { index in
            ["name": .string("item \(index)"), "done": .bool(index % 3 == 0)]
        }
        var moved = Array(items[..<4000])
        for _ in 0..<10 {
            let length = 1 + dice.roll(5)
            let start = dice.roll(moved.count - length)
            let block = Array(moved[start..<start + length])
            moved.removeSubrange(start..<start + length)
            moved.insert(contentsOf: block, at: dice.roll(moved.count + 1))
        }
        for block in stride(from: 4000, to: 9000, by: 20) {
            moved += items[block + 10..<block + 20] + items[block..<block + 10]
        }
        changes.append(
            FileChange("long.json", old: Self.json(["items": .array(items)]), new: Self.json(["items": .array(moved)])))
        changes.append(
            FileChange(
                "long-reversed.json", old: Self.json(["items": .array(moved.reversed())]),
                new: Self.json(["items": .array(items.reversed())])))
        let result = try Self.expectSameAsGit(changes)
        #expect(result.matched == result.total)
    }

    /// Random lines of plain text from a small set (blank lines, tabs, braces, CRLF, a last
    /// line without newline) edited at random: the diff is general, not only for JSON.
    @Test func randomEditsOfPlainTextAreDiffedAsGitDoes() throws {
        var dice = RandomDocuments.Dice(state: 11)
        let vocabulary = [
            "", "", "{", "}", "  }", "\t}", "\tif x {", "    return", "func f() {", "a", "b", "  a", "\t\ta", " ", "\t",
            "end\r", "x = 1",
        ]
        func text(_ lines: [String], newline: Bool) -> [UInt8] {
            Array((lines.joined(separator: "\n") + (newline ? "\n" : "")).utf8)
        }
        var changes: [FileChange] = []
        for index in 0..<200 {
            var lines = (0..<(5 + dice.roll(60))).map { _ in dice.pick(vocabulary) }
            let old = text(lines, newline: !dice.chance(10))
            for _ in 0..<(1 + dice.roll(6)) {
                let position = dice.roll(lines.count + 1)
                switch dice.roll(3) {
                case 0:
                    lines.insert(contentsOf: (0..<(1 + dice.roll(4))).map { _ in dice.pick(vocabulary) }, at: position)
                case 1:
                    if position < lines.count {
                        lines.removeSubrange(position..<min(lines.count, position + 1 + dice.roll(3)))
                    }
                default: if position < lines.count { lines[position] = dice.pick(vocabulary) }
                }
            }
            changes.append(
                FileChange(String(format: "text-%03d", index), old: old, new: text(lines, newline: !dice.chance(10))))
        }
        let result = try Self.expectSameAsGit(changes)
        #expect(result.matched == result.total)
    }

    /// Random documents moved to another entity's folder and edited, as an entity rename does.
    @Test func randomlyMovedDocumentsAreShownAsGitShowsThem() throws {
        let seed = ProcessInfo.processInfo.environment["FOLIO_DIFF_SEED"].flatMap { UInt64($0) } ?? 77
        var random = RandomDocuments(seed: seed)
        var changes: [FileChange] = []
        for _ in 0..<60 {
            var document = random.document(size: 10)
            let old = Self.json(document)
            let id = random.uuid()
            if case .object(var object) = document {
                object["$entity"] = "Renamed"
                document = .object(object)
            }
            for _ in 0..<random.dice.roll(4) { random.edit(&document) }
            changes.append(
                FileChange(
                    moving: "Before/2026/01/02/\(id).json", to: "After/2026/01/02/\(id).json", old: old,
                    new: Self.json(document)))
        }
        let result = try Self.expectSameAsGit(changes)
        #expect(result.matched == result.total, "seed \(seed): \(result.matched) of \(result.total) files match git")
    }
}

import FolioTestSupport
import Foundation
import Testing

/// Edits that keep a file's size and modification time, as careless users and backup tools
/// make them (`touch -r`, `cp -p`, `rsync -t --inplace`, a `tar` restore, `git checkout`):
/// every command answers from the edited files, never from the cache of the old ones, and
/// a later write keeps the edit.
@Suite(.serialized)
struct KeptStampTests {
    /// How an edit puts the new bytes in place; each then sets the old times back.
    enum Method: CaseIterable {
        /// Written over the old bytes in the same file (`cp -p` onto it, `rsync --inplace`).
        case inPlace
        /// A new file renamed over the old one (`tar`, most editors).
        case renamedOver
        /// The old file removed and a new one made at its name (`git checkout`), whose inode
        /// the file system may well give back.
        case removedAndMade
    }

    /// A store of timers whose files all have one size: six-letter names, three-digit durations.
    struct SameSizeStore {
        let folder: TemporaryDirectory
        let folio: FolioTool
        var root: String { folder("Timers") }

        init(timers: Int) throws {
            folder = try TemporaryDirectory()
            _ = try folder.create("schema.json", contents: Array(TimerStore.schema.utf8))
            let created = try FolioTool(folder: folder.path)("init", "Timers", "--schema", "schema.json")
            guard created.status == 0 else { throw StoreSetupError(run: created) }
            folio = FolioTool(folder: folder("Timers"))
            for number in 0..<timers {
                let run = try folio(
                    "insert", "Timer", "name=Timer\(number)", "durationInSeconds=\(100 + number)",
                    "createdAt=2026-11-0\(1 + number % 3)T10:00:00Z")
                guard run.status == 0 else { throw StoreSetupError(run: run) }
            }
        }

        /// Every Timer document's path relative to the store, sorted.
        func paths() throws -> [String] {
            try FileManager.default.subpathsOfDirectory(atPath: root + "/Timer").filter { $0.hasSuffix(".json") }
                .map { "Timer/" + $0 }.sorted()
        }

        func bytes(at relative: String) throws -> [UInt8] {
            Array(try Data(contentsOf: URL(fileURLWithPath: root + "/" + relative)))
        }

        /// Puts `bytes` at `relative` by `method`, then gives the file back the access and
        /// modification times it had: a change only the change time and perhaps the inode show.
        func replace(_ relative: String, with bytes: [UInt8], by method: Method) throws {
            let path = root + "/" + relative
            var before = stat()
            try #require(stat(path, &before) == 0)
            switch method {
            case .inPlace:
                let descriptor = open(path, O_WRONLY)
                try #require(descriptor >= 0)
                let written = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
                close(descriptor)
                try #require(written == bytes.count)
            case .renamedOver:
                try Data(bytes).write(to: URL(fileURLWithPath: path + ".tmp"))
                try #require(rename(path + ".tmp", path) == 0)
            case .removedAndMade:
                try #require(unlink(path) == 0)
                try Data(bytes).write(to: URL(fileURLWithPath: path))
            }
            var times = [before.st_atim, before.st_mtim]
            try #require(utimensat(AT_FDCWD, path, &times, 0) == 0)
            var after = stat()
            try #require(stat(path, &after) == 0)
            try #require(after.st_size == before.st_size)
            try #require(
                after.st_mtim.tv_sec == before.st_mtim.tv_sec && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)
        }
    }

    /// The name a Timer document has, read from its bytes.
    static func name(in bytes: [UInt8]) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let range = text.range(of: #""name": ""#) else { return nil }
        return String(text[range.upperBound...].prefix { $0 != "\"" })
    }

    /// Rounds of random same-size renames, each answered by every reading command of a new
    /// process (which trusts the cache file the last one wrote), then a write of another
    /// property that must keep the edit.
    @Test func editsThatKeepSizeAndModificationTimeAreSeenByEveryCommandAndKeptByTheNextWrite() throws {
        let store = try SameSizeStore(timers: 6)
        var random = SplitMix64(seed: 37)
        let paths = try store.paths()
        // Every command once, so each cache file holds every document before the edits begin.
        _ = try store.folio("count", "Timer")
        _ = try store.folio("ls", "Timer")
        for round in 0..<9 {
            let method = Method.allCases[round % Method.allCases.count]
            let path = paths[Int(random.next() % UInt64(paths.count))]
            let old = try store.bytes(at: path)
            let oldName = try #require(Self.name(in: old))
            // Six letters as the others, and each round's its own.
            let newName = String(format: "Hd%02d%02d", round, Int(random.next() % 100))
            let new = Array(String(decoding: old, as: UTF8.self).replacingOccurrences(of: oldName, with: newName).utf8)
            try store.replace(path, with: new, by: method)
            let context = "round \(round), \(method), \(path): \(oldName) -> \(newName)"

            let count = try store.folio("count", "Timer", "name == \"\(newName)\"")
            #expect(count.output.trimmingCharacters(in: .whitespacesAndNewlines) == "1", "count, \(context)")
            let stale = try store.folio("count", "Timer", "name == \"\(oldName)\"")
            #expect(stale.output.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "stale count, \(context)")
            let query = try store.folio(
                "query", "Timer", "name == \"\(newName)\"", "--fields", "path", "--format", "csv")
            #expect(query.output.contains(path), "query, \(context): \(query.output)")
            let export = try store.folio("export", "Timer")
            #expect(export.output.contains(newName) && !export.output.contains("\"\(oldName)\""), "export, \(context)")
            let aggregate = try store.folio("aggregate", "Timer", "count", "--where", "name == \"\(newName)\"")
            #expect(aggregate.output.contains("1"), "aggregate, \(context): \(aggregate.output) \(aggregate.errors)")

            // A write of another property keeps the hand edit: it is read, not overwritten.
            let id = String(path.split(separator: "/").last!.dropLast(".json".count))
            let set = try store.folio("set", id, "durationInSeconds=\(900 + round)")
            #expect(set.status == 0, "set, \(context): \(set.errors)")
            #expect(Self.name(in: try store.bytes(at: path)) == newName, "set overwrote the edit, \(context)")
        }
    }

    /// `cp -p` of one document over another of the same size: the file now holds another's
    /// identity, which `check` finds whatever the cache said of the file.
    @Test(arguments: Method.allCases)
    func aDocumentCopiedOverAnotherOfTheSameSizeIsReportedByCheck(method: Method) throws {
        let store = try SameSizeStore(timers: 2)
        let clean = try store.folio("check")
        #expect(clean.status == 0, "\(clean.output) \(clean.errors)")
        let paths = try store.paths()
        try store.replace(paths[1], with: try store.bytes(at: paths[0]), by: method)
        let check = try store.folio("check")
        #expect(check.status != 0, "check missed a copied document: \(check.output)")
        #expect((check.output + check.errors).contains(String(paths[1].split(separator: "/").last!)))
    }
}

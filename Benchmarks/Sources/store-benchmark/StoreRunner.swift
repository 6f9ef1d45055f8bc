import BenchmarkSupport
import Folio
import Foundation

/// Measures every row on stores of one size, in repetitions.
///
/// Each repetition writes four fresh trees, one per write row, each in a new
/// parent folder, and deletes none of them (see `ScratchSpace`). Folio and its C
/// floor take turns, in an order that flips every repetition, so both meet the
/// same conditions; before each write row every dirty page is written back, so
/// a row's syncs flush only its own files. The read rows then use those trees:
/// the warm open, the stat walk and the refresh the `.none` Folio tree (closed,
/// so its cache is written), the cold opens the `.full` Folio tree (cache deleted).
struct StoreRunner {
    let scratch: ScratchSpace
    /// Whether the kernel accepted dropping its page cache, which the "dropped" rows need.
    let canDropPageCache: Bool
    private let clock = ContinuousClock()

    init(scratch: ScratchSpace, canDropPageCache: Bool) {
        self.scratch = scratch
        self.canDropPageCache = canDropPageCache
    }

    func measure(_ sample: StoreSample, repetitions: Int) throws -> SizeResults {
        var results = SizeResults(sample: sample, repetitions: repetitions)
        for repetition in 0..<repetitions {
            Self.progress("\(Format.grouped(sample.count)) documents: repetition \(repetition + 1) of \(repetitions)")
            try measureOnce(sample, repetition: repetition, into: &results)
        }
        return results
    }

    private func measureOnce(_ sample: StoreSample, repetition: Int, into results: inout SizeResults) throws {
        let folioNone = try scratch.freshTree()
        let floorNone = try scratch.freshTree()
        let folioFull = try scratch.freshTree()
        let floorFull = try scratch.freshTree()
        var writes: [(row: StoreRow, root: String)] = [
            (.commitNone, folioNone), (.floorWrite, floorNone), (.commitFull, folioFull),
            (.floorWriteSynced, floorFull),
        ]
        if repetition % 2 == 1 { writes = [writes[1], writes[0], writes[3], writes[2]] }
        for (row, root) in writes {
            PageCache.flush()
            try results.record(row, write(row, sample, root: root))
        }
        if repetition == 0 {
            Self.progress("\(Format.grouped(sample.count)) documents: checking every file the write rows wrote")
            for (row, root) in writes { try TreeCheck.verify(root: root, sample: sample, row: row) }
        }

        // Warm: the tree just written and closed; the walk and the open take turns.
        var store: DocumentStore?
        for row in repetition % 2 == 0 ? [StoreRow.statWalk, .warmOpen] : [.warmOpen, .statWalk] {
            if row == .statWalk {
                var walk: StatWalk?
                results.record(row, try clock.measure { walk = try StatWalk(root: folioNone) })
                guard walk?.files == sample.count else {
                    throw BenchmarkFailure("the stat walk found \(walk?.files ?? 0) documents")
                }
                results.tree = walk
            } else {
                store = try open(row, root: folioNone, sample: sample, expectedReads: 0, into: &results)
            }
        }
        try measureRefresh(of: store!, sample: sample, repetition: repetition, into: &results)
        store = nil

        // Cold: the same open with no cache, so every document is read and parsed.
        try removeCache(of: folioFull)
        _ = try open(.coldOpen, root: folioFull, sample: sample, expectedReads: sample.count, into: &results)
        if canDropPageCache {
            try dropPageCache()
            results.record(.statWalkDropped, try clock.measure { _ = try StatWalk(root: folioFull) })
            try removeCache(of: folioFull)
            try dropPageCache()
            _ = try open(.coldOpenDropped, root: folioFull, sample: sample, expectedReads: sample.count, into: &results)
        }
    }

    /// Times one open of the store at `root`, which must hold every document and have
    /// read `expectedReads` of them from their files (the rest from its cache).
    private func open(
        _ row: StoreRow, root: String, sample: StoreSample, expectedReads: Int, into results: inout SizeResults
    ) throws -> DocumentStore {
        var store: DocumentStore?
        let time = try clock.measure { store = try DocumentStore.open(at: root) }
        let statistics = store!.statistics
        results.record(row, time, filesRead: statistics.filesRead)
        guard statistics.filesRead == expectedReads, statistics.filesRead + statistics.cacheHits == sample.count else {
            throw BenchmarkFailure(
                "\(row.title) read \(statistics.filesRead) documents and took \(statistics.cacheHits) from its cache, "
                    + "for \(sample.count) documents of which it should have read \(expectedReads)")
        }
        return store!
    }

    private func dropPageCache() throws {
        guard PageCache.drop() else {
            throw BenchmarkFailure("the kernel accepted dropping its page cache once, then refused")
        }
    }

    /// Writes every document into a new tree at `root`: through Folio (timed from
    /// `create` to the end of the commit, then closed untimed, which confirms and
    /// caches every document), or through the C floor.
    private func write(_ row: StoreRow, _ sample: StoreSample, root: String) throws -> Duration {
        switch row {
        case .commitNone, .commitFull:
            var store: DocumentStore?
            var summary: CommitSummary?
            let time = try clock.measure {
                store = try DocumentStore.create(
                    at: root, manifest: StoreSample.manifest, durability: row == .commitFull ? .full : .none)
                summary = try store!.commit(sample.changes)
            }
            guard summary?.written == sample.count else {
                throw BenchmarkFailure("\(row.title) wrote \(summary?.written ?? 0) documents, not \(sample.count)")
            }
            try store!.close()
            return time
        case .floorWrite, .floorWriteSynced:
            return try clock.measure { try sample.floorInput.write(root: root, sync: row == .floorWriteSynced) }
        default:
            throw BenchmarkFailure("\(row.title) is not a write row")
        }
    }

    /// Rewrites `StoreGoal.editedFiles` random documents behind the open store's back
    /// (new bytes in a new file renamed over the old one, as git does), then times
    /// the store's refresh, which must report exactly those files as modified.
    private func measureRefresh(
        of store: DocumentStore, sample: StoreSample, repetition: Int, into results: inout SizeResults
    ) throws {
        var generator = SplitMix64(seed: 100 + UInt64(repetition))
        var chosen = Set<Int>()
        while chosen.count < StoreGoal.editedFiles {
            chosen.insert(Int.random(in: 0..<sample.count, using: &generator))
        }
        let indices = chosen.sorted()
        let edits = FloorInput(
            paths: indices.map { sample.paths[$0] },
            bytes: try indices.map { try sample.editedBytes(of: $0, version: 1_000 + repetition) })
        try edits.write(root: store.root, sync: false)

        var refreshed: StoreChanges?
        let time = try clock.measure { refreshed = try store.refresh() }
        let changes = refreshed!
        results.record(.refresh, time, filesRead: changes.filesRead)
        let modified = Set(changes.modified.map(\.relativePath))
        guard modified == Set(indices.map { sample.paths[$0] }), changes.added.isEmpty, changes.removed.isEmpty else {
            throw BenchmarkFailure(
                "the refresh after \(StoreGoal.editedFiles) edits reported \(changes.modified.count) modified, "
                    + "\(changes.added.count) added and \(changes.removed.count) removed documents")
        }
    }

    private func removeCache(of root: String) throws {
        let path = root + "/.folio/cache"
        guard FileManager.default.fileExists(atPath: path) else {
            throw BenchmarkFailure("\(root) has no cache to delete")
        }
        try FileManager.default.removeItem(atPath: path)
    }

    /// Progress goes to standard error, so standard output holds only the report.
    static func progress(_ line: String) {
        FileHandle.standardError.write(Data("… \(line)\n".utf8))
    }
}

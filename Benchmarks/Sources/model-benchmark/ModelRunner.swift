import BenchmarkSupport
import Foundation
import StoreFloor

/// Measures every row, Folio and GRDB taking turns, and keeps the samples.
///
/// Rows run in this order: memory (child processes reading stores made for them), the
/// single saves, the strokes, then the whole-set rows by size. Each side of each row
/// works in a new folder; nothing is deleted until the end (see `ScratchFolders`).
/// Before every timed write, every dirty page is written back (see `Contender`), so
/// that a side's syncs flush only its own files.
struct ModelRunner {
    let options: Options
    let scratch: ScratchFolders
    var results = Results()

    init(options: Options, scratch: ScratchFolders) {
        self.options = options
        self.scratch = scratch
    }

    mutating func run() throws {
        try measureMemory()
        try measureSingleSaves()
        try measureStrokes()
        for size in options.sizes { try measureWholeSets(of: size) }
    }

    /// The single saves: in each round, for each durability pair, each side saves
    /// `registeredSessions` in a new store, opens it again, fetches them all, then
    /// inserts and saves sessions one at a time; the first `warmUpSaves` are not kept.
    private mutating func measureSingleSaves() throws {
        let registered = SessionValues.make(count: options.registeredSessions, seed: 2)
        let new = SessionValues.make(count: options.warmUpSaves + options.timedSaves, seed: 3)
        for round in 0..<options.latencyRounds {
            for (index, pair) in DurabilityPair.allCases.enumerated() {
                for side in Side.turns(round + index) {
                    Self.progress(
                        "single saves with \(Format.grouped(registered.count)) registered, \(pair.label): \(side.contender.name), round \(round + 1) of \(options.latencyRounds)"
                    )
                    let folder = try scratch.fresh()
                    let times = try side.contender.singleSaves(
                        registered: registered, new: new, in: folder, durability: pair)
                    for time in times.dropFirst(options.warmUpSaves) { results.record(.singleSave(pair), side, time) }
                }
            }
        }
    }

    /// The strokes: in each round, for each durability pair, each side saves a rowing
    /// session, then every stroke on its own.
    private mutating func measureStrokes() throws {
        let session = StrokeValues.session(seed: 4)
        let strokes = StrokeValues.make(count: options.strokes, after: session.startTime, seed: 5)
        for round in 0..<options.latencyRounds {
            for (index, pair) in DurabilityPair.allCases.enumerated() {
                for side in Side.turns(round + index) {
                    Self.progress(
                        "\(strokes.count) strokes, \(pair.label): \(side.contender.name), round \(round + 1) of \(options.latencyRounds)"
                    )
                    let folder = try scratch.fresh()
                    let times = try side.contender.strokeSaves(
                        session: session, strokes: strokes, in: folder, durability: pair)
                    for time in times { results.record(.strokeSave(pair), side, time) }
                    results.record(.strokeTotal(pair), side, times.reduce(.zero, +))
                }
            }
        }
    }

    /// The whole-set rows for `size` sessions: in each round, each side inserts and
    /// saves them all once per durability pair, each in a new store; then both open
    /// their `.full`/`FULL` store twice, fetching every session each time.
    private mutating func measureWholeSets(of size: Int) throws {
        Self.progress("\(Format.grouped(size)) sessions: making the values")
        let sessions = SessionValues.make(count: size, seed: 1)
        let expected = SessionDigest(sessions)
        let rounds = options.rounds(for: size)
        for round in 0..<rounds {
            Self.progress("\(Format.grouped(size)) sessions: round \(round + 1) of \(rounds)")
            var fullStores: [Side: String] = [:]
            for (index, pair) in DurabilityPair.durable.enumerated() {
                for side in Side.turns(round + index) {
                    let folder = try scratch.fresh()
                    results.record(
                        .insertAndSave(size: size, pair), side,
                        try side.contender.insertAndSave(sessions, in: folder, durability: pair))
                    if pair == .full { fullStores[side] = folder }
                }
            }
            for second in [false, true] {
                for side in Side.turns(round) {
                    let (time, fetched) = try side.contender.reopenAndFetchAll(in: fullStores[side]!)
                    guard fetched == expected else {
                        throw BenchmarkFailure("\(side.contender.name) fetched \(fetched), but saved \(expected)")
                    }
                    results.record(.reopenAndFetchAll(size: size, second: second), side, time)
                }
            }
            results.record(.statWalk(size: size), .folio, try Self.statWalk(of: fullStores[.folio]!, expecting: size))
        }
    }

    /// The C `stat` walk of the `FocusSession/` folder of the Folio store in `folder`
    /// (`<folder>/store`, as `FolioContender` makes it), which must find `sessions` files.
    private static func statWalk(of folder: String, expecting sessions: Int) throws -> Duration {
        var totals = store_floor_walk_totals()
        let start = ContinuousClock.now
        let failure = store_floor_stat_walk_entity(folder + "/store/FocusSession", &totals)
        let time = start.duration(to: .now)
        guard failure == 0, totals.files == sessions else {
            throw BenchmarkFailure("the stat walk found \(totals.files) sessions (error \(failure)), not \(sessions)")
        }
        return time
    }

    /// Progress goes to standard error, so standard output holds only the report.
    static func progress(_ line: String) {
        FileHandle.standardError.write(Data("… \(line)\n".utf8))
    }
}

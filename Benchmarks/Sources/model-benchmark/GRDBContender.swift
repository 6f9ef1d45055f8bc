import BenchmarkSupport
import Foundation
import GRDB
import Glibc

/// GRDB's side: a `DatabaseQueue` over an SQLite file in WAL mode, and `Codable`
/// records, as GRDB's documentation shows them.
struct GRDBContender: Contender {
    let name = "GRDB"

    func insertAndSave(_ sessions: [SessionValues], in folder: String, durability: DurabilityPair) throws -> Duration {
        let queue = try Self.queue(in: folder, durability: durability)
        try queue.write(GRDBFocusSession.createTable)
        sync()
        let time = try ContinuousClock().measure {
            try queue.write { db in
                for values in sessions { try GRDBFocusSession(values).insert(db) }
            }
        }
        let saved = try queue.read(GRDBFocusSession.fetchCount)
        guard saved == sessions.count else {
            throw BenchmarkFailure("GRDB saved \(saved) sessions, not \(sessions.count)")
        }
        return time
    }

    func reopenAndFetchAll(in folder: String) throws -> (time: Duration, fetched: SessionDigest) {
        var sessions: [GRDBFocusSession] = []
        let time = try ContinuousClock().measure {
            let queue = try Self.queue(in: folder, durability: .full)
            sessions = try queue.read(GRDBFocusSession.fetchAll)
        }
        var digest = SessionDigest()
        for session in sessions {
            digest.add(
                id: session.id, startTime: session.startTime, endTime: session.endTime, duration: session.duration)
        }
        return (time, digest)
    }

    func singleSaves(registered: [SessionValues], new: [SessionValues], in folder: String, durability: DurabilityPair)
        throws -> [Duration]
    {
        _ = try insertAndSave(registered, in: folder, durability: durability)
        let queue = try Self.queue(in: folder, durability: durability)
        // The app's copy of what it fetched, which each new record joins, as Folio's context registers it.
        var fetched = try queue.read(GRDBFocusSession.fetchAll)
        guard fetched.count == registered.count else {
            throw BenchmarkFailure("GRDB fetched \(fetched.count) of \(registered.count) sessions")
        }
        sync()
        let clock = ContinuousClock()
        let times = try new.map { values in
            try clock.measure {
                let session = GRDBFocusSession(values)
                try queue.write { db in try session.insert(db) }
                fetched.append(session)
            }
        }
        let saved = try queue.read(GRDBFocusSession.fetchCount)
        guard saved == registered.count + new.count else {
            throw BenchmarkFailure("GRDB holds \(saved) sessions after the single saves")
        }
        return times
    }

    func strokeSaves(
        session values: StrokeValues.Session, strokes: [StrokeValues], in folder: String, durability: DurabilityPair
    ) throws -> [Duration] {
        let queue = try Self.queue(in: folder, durability: durability)
        try queue.write(GRDBRowing.createTables)
        let session = GRDBRowingSession(values)
        try queue.write { db in try session.insert(db) }
        sync()
        let clock = ContinuousClock()
        let times = try strokes.map { stroke in
            try clock.measure {
                let metric = GRDBPerformanceMetric(id: UUID(), sessionID: session.id, stroke)
                try queue.write { db in try metric.insert(db) }
            }
        }
        let stored = try queue.read { db in
            try GRDBPerformanceMetric.filter(Column("sessionID") == session.id).fetchCount(db)
        }
        guard stored == strokes.count else {
            throw BenchmarkFailure("GRDB stored \(stored) strokes of \(strokes.count)")
        }
        return times
    }

    func memoryGrowth(warmUp: String, folder: String) throws -> (afterOpen: HeapUse, afterFetch: HeapUse) {
        do {
            let queue = try Self.queue(in: warmUp, durability: .full)
            _ = try queue.read(GRDBFocusSession.fetchAll)
        }
        let before = try HeapUse()
        let queue = try Self.queue(in: folder, durability: .full)
        let afterOpen = try HeapUse()
        let sessions = try queue.read(GRDBFocusSession.fetchAll)
        let afterFetch = try HeapUse()
        withExtendedLifetime((queue, sessions)) {}
        return (afterOpen.growth(since: before), afterFetch.growth(since: before))
    }

    /// A queue over `folder`/db.sqlite (made when missing) in WAL mode, with `PRAGMA
    /// synchronous` as the durability says, checked after opening.
    ///
    /// GRDB's own `journalMode = .wal` would set `synchronous=NORMAL` after
    /// `prepareDatabase` runs, so WAL is switched on here, before the level is set.
    static func queue(in folder: String, durability: DurabilityPair) throws -> DatabaseQueue {
        var configuration = Configuration()
        let synchronous = durability.synchronous
        configuration.prepareDatabase { db in
            let mode = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            guard mode == "wal" else {
                throw BenchmarkFailure("SQLite answered journal_mode \(mode ?? "nothing") to WAL")
            }
            try db.execute(sql: "PRAGMA synchronous = \(synchronous)")
        }
        let queue = try DatabaseQueue(path: folder + "/db.sqlite", configuration: configuration)
        let level = try queue.read { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
        guard level == durability.synchronousCode else {
            throw BenchmarkFailure(
                "SQLite's synchronous is \(level.map(String.init) ?? "unknown"), not \(durability.synchronous)")
        }
        return queue
    }
}

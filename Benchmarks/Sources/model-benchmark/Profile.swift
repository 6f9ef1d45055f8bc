import BenchmarkSupport
import Folio
import Foundation

/// `--profile [size]`: one store of `size` sessions (100,000 unless given), then reopen and
/// fetch-all ten times, printing how long opening and fetching each took, for `perf record`.
/// GRDB is not run: this is for finding where Folio's time goes, not for comparing.
/// `--profile <size> <folder>` keeps the store in `folder` (made on the first run and
/// reused after), so that `perf record` sees only the opens and fetches.
enum Profile {
    static let flag = "--profile"

    static func run(size: Int, keeping kept: String?, scratch: ScratchFolders) throws {
        let folder = try kept ?? scratch.fresh()
        if !FileManager.default.fileExists(atPath: folder + "/store") {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let sessions = SessionValues.make(count: size, seed: 1)
            _ = try FolioContender().insertAndSave(sessions, in: folder, durability: .normal)
        }
        let url = URL(filePath: folder + "/store", directoryHint: .isDirectory)
        let clock = ContinuousClock()
        for round in 1...10 {
            let start = clock.now
            var opened = start
            var fetched: [FocusSession] = []
            var done = start
            do {
                let container = try ModelContainer(
                    for: Schema([FocusSession.self]), configurations: [ModelConfiguration(url: url)])
                opened = clock.now
                let context = ModelContext(container)
                fetched = try context.fetch(FetchDescriptor<FocusSession>())
                done = clock.now
            }
            // The context and the container are let go here, the models kept (as the
            // benchmark's row does within its timing).
            let closed = clock.now
            var digest = SessionDigest()
            for session in fetched {
                digest.add(
                    id: session.id, startTime: session.startTime, endTime: session.endTime, duration: session.duration)
            }
            let read = clock.now
            print(
                "round \(round): open \(ms(start.duration(to: opened))), fetch \(ms(opened.duration(to: done))), "
                    + "close \(ms(done.duration(to: closed))), read \(ms(closed.duration(to: read))) (\(fetched.count) sessions)"
            )
        }
    }

    private static func ms(_ duration: Duration) -> String {
        Format.milliseconds(Format.seconds(duration))
    }
}

extension Profile {
    static let savesFlag = "--profile-saves"

    /// `--profile-saves`: 10,000 sessions saved and fetched, then 2,000 single inserts
    /// and saves without syncs (`.none`), printing their median: the CPU's part of a save.
    static func runSaves(scratch: ScratchFolders) throws {
        let registered = SessionValues.make(count: 10_000, seed: 2)
        let new = SessionValues.make(count: 2_000, seed: 3)
        let times = try FolioContender().singleSaves(
            registered: registered, new: new, in: try scratch.fresh(), durability: .none)
        print("single saves, .none: median \(ms(times.sorted()[times.count / 2]))")
    }
}

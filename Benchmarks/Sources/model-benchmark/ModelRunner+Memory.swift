import BenchmarkSupport
import Foundation

extension ModelRunner {
    /// The memory rows: each side saves 1,000 sessions (and 10 for the warm-up) and opens
    /// the stores once, so Folio's cache is written and SQLite's WAL checkpointed; then
    /// child processes, the sides taking turns, each measure one open and fetch.
    mutating func measureMemory() throws {
        let sessions = SessionValues.make(count: options.memorySessions, seed: 6)
        let warmUpSessions = SessionValues.make(count: 10, seed: 7)
        var stores: [Side: (warmUp: String, folder: String)] = [:]
        for side in Side.allCases {
            Self.progress(
                "memory: \(side.contender.name) saves \(Format.grouped(sessions.count)) sessions for the child processes"
            )
            let warmUp = try scratch.fresh()
            let folder = try scratch.fresh()
            for (store, values) in [(warmUp, warmUpSessions), (folder, sessions)] {
                _ = try side.contender.insertAndSave(values, in: store, durability: .full)
                guard try side.contender.reopenAndFetchAll(in: store).fetched == SessionDigest(values) else {
                    throw BenchmarkFailure(
                        "\(side.contender.name) did not give back the sessions saved for the memory rows")
                }
            }
            stores[side] = (warmUp, folder)
        }
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        for run in 0..<options.memoryRuns {
            for side in Side.turns(run) {
                Self.progress("memory: \(side.contender.name), child process \(run + 1) of \(options.memoryRuns)")
                let growth = try MemoryChild.spawn(
                    executable: executable, side: side, warmUp: stores[side]!.warmUp, folder: stores[side]!.folder)
                results.record(.memoryAfterOpen, side, value: Double(growth.afterOpen.resident))
                results.record(.memoryAfterFetch, side, value: Double(growth.afterFetch.resident))
                results.record(.heapAfterOpen, side, value: Double(growth.afterOpen.heap))
                results.record(.heapAfterFetch, side, value: Double(growth.afterFetch.heap))
            }
        }
    }
}

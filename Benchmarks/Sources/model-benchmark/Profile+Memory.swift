import BenchmarkSupport
import Folio
import Foundation

extension Profile {
    static let memoryFlag = "--profile-memory"

    /// `--profile-memory [size]`: one store of `size` sessions (1,000 unless given) on each
    /// side, then, in this process, the heap bytes in use (`mallinfo2`) and the resident
    /// memory after opening, after fetching every session and after reading each one's
    /// values: where the memory rows' growth goes, and how much of it is memory the
    /// allocator holds but nothing uses.
    static func runMemory(size: Int, scratch: ScratchFolders) throws {
        let sessions = SessionValues.make(count: size, seed: 6)
        // A first round, not printed: each side's one-time set-up (code paged in, type
        // metadata, first allocations) is then not counted as its sessions' memory.
        for side in Side.allCases {
            let folder = try scratch.fresh()
            _ = try side.contender.insertAndSave(sessions, in: folder, durability: .full)
            _ = try side.contender.reopenAndFetchAll(in: folder)
        }
        print("| side | stage | heap in use (KiB) | resident (KiB) |")
        print("| --- | --- | ---: | ---: |")
        for side in Side.allCases {
            let folder = try scratch.fresh()
            _ = try side.contender.insertAndSave(sessions, in: folder, durability: .full)
            _ = try side.contender.reopenAndFetchAll(in: folder)
            for (stage, growth) in try stagedGrowth(side, in: folder) {
                print("| \(side.contender.name) | \(stage) | \(growth.heap) | \(growth.resident) |")
            }
        }
    }
}

/// Opens the store in `folder`, fetches every session and reads each one's values,
/// noting the growth of the heap and of resident memory after each step.
private func stagedGrowth(_ side: Side, in folder: String) throws -> [(String, HeapUse)] {
    var stages: [(String, HeapUse)] = []
    var digest = SessionDigest()
    let start = try HeapUse()
    switch side {
    case .folio:
        let container = try FolioContender.container(FocusSession.self, in: folder, durability: .full)
        stages.append(("open", try HeapUse().growth(since: start)))
        do {
            let context = ModelContext(container)
            let sessions = try context.fetch(FetchDescriptor<FocusSession>())
            stages.append(("fetch", try HeapUse().growth(since: start)))
            for session in sessions {
                digest.add(
                    id: session.id, startTime: session.startTime, endTime: session.endTime, duration: session.duration)
            }
            stages.append(("values read", try HeapUse().growth(since: start)))
            withExtendedLifetime((context, sessions)) {}
        }
        stages.append(("models let go, container kept", try HeapUse().growth(since: start)))
        do {
            let context = ModelContext(container)
            let sessions = try context.fetch(FetchDescriptor<FocusSession>())
            stages.append(("fetched again", try HeapUse().growth(since: start)))
            withExtendedLifetime((context, sessions)) {}
        }
        withExtendedLifetime(container) {}
    case .grdb:
        let queue = try GRDBContender.queue(in: folder, durability: .full)
        stages.append(("open", try HeapUse().growth(since: start)))
        let sessions = try queue.read(GRDBFocusSession.fetchAll)
        stages.append(("fetch", try HeapUse().growth(since: start)))
        for session in sessions {
            digest.add(
                id: session.id, startTime: session.startTime, endTime: session.endTime, duration: session.duration)
        }
        stages.append(("values read", try HeapUse().growth(since: start)))
        withExtendedLifetime((queue, sessions)) {}
    }
    return stages
}

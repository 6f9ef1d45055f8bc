import Folio
import Foundation

/// An importer of sessions off the main actor, as an app's model actor is.
@ModelActor actor SessionImporter {
    func add(at start: Date) throws {
        modelContext.insert(FocusSession(startTime: start))
        try modelContext.save()
    }
}

/// What the process holds that a container left behind would show: its threads, those of
/// them that are store watchers, its open descriptors and those of them that are inotify
/// instances, as `/proc/self` lists them.
struct HeldResources: CustomStringConvertible {
    var threads = 0
    var watcherThreads = 0
    var descriptors = 0
    var inotifyInstances = 0

    static func now() -> HeldResources {
        var held = HeldResources()
        let manager = FileManager.default
        for task in (try? manager.contentsOfDirectory(atPath: "/proc/self/task")) ?? [] {
            held.threads += 1
            let name = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
            if name.trimmingCharacters(in: .newlines) == "folio-watch" { held.watcherThreads += 1 }
        }
        for descriptor in (try? manager.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
            held.descriptors += 1
            let target = (try? manager.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)")) ?? ""
            if target == "anon_inode:inotify" { held.inotifyInstances += 1 }
        }
        return held
    }

    var description: String {
        "threads \(threads) watchers \(watcherThreads) descriptors \(descriptors) inotify \(inotifyInstances)"
    }
}

/// One container used every way an app uses one, then let go: its main context saves, a
/// `ResultsObserver` follows its sessions, and a model actor saves through it.
@MainActor func useAndDropContainer(store path: String, round: Int) async throws {
    let container = try ModelContainer(
        for: FocusSession.self, configurations: ModelConfiguration(url: URL(fileURLWithPath: path), durability: .none))
    let start = Date(timeIntervalSinceReferenceDate: 815_000_000 + Double(round) * 3600)
    let sessions = try ResultsObserver(
        fetchDescriptor: FetchDescriptor<FocusSession>(), modelContext: container.mainContext)
    container.mainContext.insert(FocusSession(startTime: start))
    try container.mainContext.save()
    try await SessionImporter(modelContainer: container).add(at: start.addingTimeInterval(60))
    guard sessions.results.count <= 2 * (round + 1) else { fail("more sessions than were saved") }
}

/// `container-churn STORE COUNT`: one container used and dropped first, then what the process
/// holds is printed (`before …`); COUNT containers more used and dropped, and once their
/// pending autosaves have run, what it holds is printed again (`after …`).
@MainActor func containerChurn(store path: String, count: Int) async throws {
    try await useAndDropContainer(store: path, round: 0)
    try await Task.sleep(for: .milliseconds(200))
    print("before \(HeldResources.now())")
    for round in 1...count { try await useAndDropContainer(store: path, round: round) }
    try await Task.sleep(for: .milliseconds(200))
    print("after \(HeldResources.now())")
}

/// `remove-watched STORE`: a container watching the store saves, the store's folder is removed
/// as `rm -r` would, and after half a second the process ends; whatever the container logs
/// goes to stderr.
@MainActor func removeWatchedStore(at path: String) async throws {
    let container = try ModelContainer(
        for: FocusSession.self, configurations: ModelConfiguration(url: URL(fileURLWithPath: path), durability: .none))
    container.mainContext.insert(FocusSession(startTime: Date(timeIntervalSinceReferenceDate: 815_000_000)))
    try container.mainContext.save()
    try FileManager.default.removeItem(atPath: path)
    try await Task.sleep(for: .milliseconds(500))
    withExtendedLifetime(container) {}
}

import ArgumentParser
import FolioCore
import FolioJSON
import Foundation

/// `--store PATH`, shared by every command that works on a store.
///
/// Without it, the store is the nearest folder upward from the current one that holds
/// `folio.json`, as git finds its repository.
struct StoreOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The store's folder (default: the nearest folder upward holding folio.json).", valueName: "path"))
    var store: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "How long to wait for another process writing to the store before giving up: 0 (not at all) to 86400 (a day); 60 when not given.",
            valueName: "seconds"),
        transform: NumberOption.seconds(upTo: NumberOption.maximumLockTimeout, "a day"))
    var lockTimeout: Double = 60

    /// The store's folder, found or given.
    func root() throws(FolioError) -> String {
        if let store {
            return URL(fileURLWithPath: store).standardizedFileURL.path
        }
        var folder = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL
        while true {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent(StoreManifest.fileName).path) {
                return folder.path
            }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { break }
            folder = parent
        }
        throw .invalidStore(
            path: FileManager.default.currentDirectoryPath,
            reason: "no folio.json here or in any folder above; pass --store PATH, or create a store with `folio init`")
    }

    /// The store, opened; `progress` hears the files read that the cache did not vouch for,
    /// and `reads` says whether it serves this one command or more (see `StoreReads`).
    func open(progress: ReadProgress? = nil, reads: StoreReads = .app) throws(FolioError) -> DocumentStore {
        let root = try root()
        guard FileManager.default.fileExists(atPath: root + "/" + StoreManifest.fileName) else {
            throw .invalidStore(
                path: root,
                reason:
                    "this folder holds no folio.json, so it is not a Folio store; create one with `folio init \(root)`")
        }
        let store = try DocumentStore.open(at: root, lockTimeout: lockTimeout, progress: progress, reads: reads)
        // What the store could open despite, said once before the command's own output.
        if let unfinished = store.unfinishedTransaction {
            Terminal.printError(
                Terminal.diagnostic(unfinished.description, shownAs: Terminal.colour("warning:", 33, onError: true)))
        }
        if let reason = store.unlockedReason { Terminal.printError("note: \(reason)") }
        for folder in store.setAsideHistories { Self.warnOfSetAsideHistory(folder) }
        return store
    }

    /// Says that a damaged history was set aside in `folder`, and what to do about it.
    static func warnOfSetAsideHistory(_ folder: String) {
        Terminal.printError(
            Terminal.colour("warning:", 33, onError: true)
                + " the store's history was damaged and set aside in \(folder) (its REASON file says why);"
                + " a new history began. Look at it, then remove that folder")
    }
}

extension DocumentStore {
    /// An entity's properties as the manifest describes them, in declaration order; empty
    /// for an entity the manifest does not know.
    func describedProperties(of entity: String) -> [StoredSchema.Property] {
        manifest.storedSchema.entity(named: entity)?.properties ?? []
    }

    /// The names of an entity's properties, in declaration order.
    func propertyNames(of entity: String) -> [String] {
        describedProperties(of: entity).compactMap(\.name)
    }
}

import Folio
import Foundation

/// The example stores in the repository's `Data/`, one per seed app, written through the
/// seed apps' own models and Folio's SwiftData API.
///
/// Everything is fixed: dates are moments in 2025 and 2026 in the stores' time zone
/// (Europe/Berlin, recorded in each manifest), values and identities come from seeded
/// dice, so writing the stores twice, on any machine and in any `TZ`, gives the same bytes.
public enum ExampleData {
    /// The stores, each a folder of the output folder, in the order they are written.
    public static let storeNames = ["TimerApp", "OneThing", "ForestFocus", "HealthSync", "Rowing"]

    /// Writes every store into `folder` (created when missing), one subfolder each.
    ///
    /// Refuses to write into a store folder that already exists, because adding to an
    /// existing store would not give the committed bytes: delete the five folders first
    /// (`scripts/make-example-data.sh` does).
    public static func write(to folder: URL) throws {
        for name in storeNames where FileManager.default.fileExists(atPath: folder.appending(path: name).path) {
            throw FolioError(
                .invalidInput,
                "\(folder.appending(path: name).path) already exists; the example stores are written from scratch, so remove it first"
            )
        }
        try TimerAppExample.write(to: folder.appending(path: "TimerApp", directoryHint: .isDirectory))
        try OneThingExample.write(to: folder.appending(path: "OneThing", directoryHint: .isDirectory))
        try ForestFocusExample.write(to: folder.appending(path: "ForestFocus", directoryHint: .isDirectory))
        try HealthSyncExample.write(to: folder.appending(path: "HealthSync", directoryHint: .isDirectory))
        try RowingExample.write(to: folder.appending(path: "Rowing", directoryHint: .isDirectory))
    }

    /// A store in this folder in the examples' time zone. Without syncs: a store that a
    /// crash cut short is written again from scratch, never repaired.
    static func configuration(_ folder: URL) -> ModelConfiguration {
        ModelConfiguration(url: folder, durability: .none, timeZone: ExampleClock.timeZone)
    }
}

import Folio

/// A Folio durability level and the SQLite setting that promises the same, so that every
/// save row compares like with like.
///
/// Both sides run SQLite in WAL mode. `synchronous=FULL` syncs the WAL at every commit,
/// so a commit that returned survives power loss, as Folio's `.full` promises.
/// `synchronous=NORMAL` syncs only at checkpoints: the last commits may be lost on power
/// loss but the database stays whole, as with Folio's `.normal` (which still syncs a
/// document before renaming it into place, so that none is ever torn). `.none` and
/// `synchronous=OFF` sync nothing: the cost of each side's own work, without the disk's.
enum DurabilityPair: CaseIterable {
    case full
    case normal
    case none

    /// The pairs the goals are about, and the only ones the whole-set rows measure
    /// (`.none` only shows the single saves' cost without syncs).
    static let durable: [DurabilityPair] = [.full, .normal]

    var folio: Durability {
        switch self {
        case .full: .full
        case .normal: .normal
        case .none: .none
        }
    }

    /// The value of SQLite's `PRAGMA synchronous`.
    var synchronous: String {
        switch self {
        case .full: "FULL"
        case .normal: "NORMAL"
        case .none: "OFF"
        }
    }

    /// `PRAGMA synchronous` reads back as a number: 2 for FULL, 1 for NORMAL, 0 for OFF.
    var synchronousCode: Int {
        switch self {
        case .full: 2
        case .normal: 1
        case .none: 0
        }
    }

    var label: String { ".\(folio.rawValue) vs synchronous=\(synchronous)" }
}

/// How hard a commit works to survive a power loss or an operating-system crash.
///
/// Every level keeps transactions all-or-nothing and documents whole when the
/// *process* dies (a crash, `kill -9`): the journal sees to that. The levels
/// differ in what survives losing the machine, and in cost.
public enum Durability: String, Sendable, CaseIterable {
    /// Survives power loss: a commit that returned is on disk, entirely. Staged files
    /// are made durable together (one `syncfs`), then the commit record, then the
    /// renames (another `syncfs`) before the journal is removed.
    case full
    /// Documents are never torn or empty after a power loss (data reach the disk before
    /// they are renamed into place), but the most recent transactions may be lost or,
    /// like SQLite's `synchronous=NORMAL`, partly applied. About one `syncfs` cheaper.
    case normal
    /// No syncs: for tests and bulk loads. Safe against process crashes only.
    case none
}

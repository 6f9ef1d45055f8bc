/// One row of the results table: a Folio operation on a whole store, or the C floor it is measured against.
enum StoreRow: CaseIterable {
    case commitNone
    case floorWrite
    case commitFull
    case floorWriteSynced
    case warmOpen
    case coldOpen
    case coldOpenDropped
    case statWalk
    case statWalkDropped
    case refresh

    var title: String {
        switch self {
        case .commitNone: "Folio create + commit all in 1 transaction, durability .none"
        case .floorWrite: "C floor: temp file + rename per file"
        case .commitFull: "Folio create + commit all in 1 transaction, durability .full"
        case .floorWriteSynced: "C floor: temp file + rename per file, then 1 syncfs"
        case .warmOpen: "Folio open, warm cache"
        case .coldOpen: "Folio open, cold (no .folio/cache)"
        case .coldOpenDropped: "Folio open, cold (no .folio/cache, OS page cache dropped)"
        case .statWalk: "C floor: stat walk (opendir/readdir/fstatat)"
        case .statWalkDropped: "C floor: stat walk, OS page cache dropped"
        case .refresh: "Folio refresh after 100 external edits"
        }
    }

    /// The C row this row is measured against, for the "vs floor" column.
    var floor: StoreRow? {
        switch self {
        case .commitNone: .floorWrite
        case .commitFull: .floorWriteSynced
        case .warmOpen, .coldOpen, .refresh: .statWalk
        case .coldOpenDropped: .statWalkDropped
        case .floorWrite, .floorWriteSynced, .statWalk, .statWalkDropped: nil
        }
    }

    /// Whether the row needs the kernel to drop its page cache, which a sandbox may refuse.
    var dropsPageCache: Bool { self == .coldOpenDropped || self == .statWalkDropped }
}

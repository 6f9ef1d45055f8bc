/// FolioJSON's performance goals, each a ratio of two rows' median times on one
/// workload (for reads, the same as the ratio of their MB/s).
enum Goal: CaseIterable {
    case readVersusSerialization
    case readVersusFloor
    case writeVersusEncoder
    case writeVersusTypedEncoder
    case writeVersusFloor

    var title: String {
        switch self {
        case .readVersusSerialization: "FolioJSON read ≥ 3× faster than JSONSerialization"
        case .readVersusFloor: "FolioJSON read within 3× of the YAJL no-op floor"
        case .writeVersusEncoder: "FolioJSON write ≥ 4× faster than JSONEncoder (string fields)"
        case .writeVersusTypedEncoder: "FolioJSON write ≥ 4× faster than JSONEncoder (typed models)"
        case .writeVersusFloor: "FolioJSON write within 3× of the yajl_gen floor"
        }
    }

    /// How many times faster FolioJSON is than the other row, or for the floors,
    /// how many times slower FolioJSON is than the floor.
    func ratio(in results: WorkloadResults) -> Double {
        switch self {
        case .readVersusSerialization: results.seconds(of: SerializationRead.self) / results.seconds(of: FolioRead.self)
        case .readVersusFloor: results.seconds(of: FolioRead.self) / results.seconds(of: YajlFloorRead.self)
        case .writeVersusEncoder: results.seconds(of: EncoderWrite.self) / results.seconds(of: FolioWrite.self)
        case .writeVersusTypedEncoder:
            results.seconds(of: TypedEncoderWrite.self) / results.seconds(of: FolioWrite.self)
        case .writeVersusFloor: results.seconds(of: FolioWrite.self) / results.seconds(of: YajlGenFloorWrite.self)
        }
    }

    func isMet(by ratio: Double) -> Bool {
        switch self {
        case .readVersusSerialization: ratio >= 3
        case .readVersusFloor: ratio <= 3
        case .writeVersusEncoder, .writeVersusTypedEncoder: ratio >= 4
        case .writeVersusFloor: ratio <= 3
        }
    }
}

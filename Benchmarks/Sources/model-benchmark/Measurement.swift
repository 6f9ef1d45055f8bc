/// The two sides, in the order the report prints them.
enum Side: CaseIterable {
    case folio
    case grdb

    var contender: any Contender {
        switch self {
        case .folio: FolioContender()
        case .grdb: GRDBContender()
        }
    }

    var commandName: String {
        switch self {
        case .folio: "folio"
        case .grdb: "grdb"
        }
    }

    /// Who goes first in a round: Folio in even rounds, GRDB in odd ones, so that
    /// both meet the machine's changing load alike.
    static func turns(_ round: Int) -> [Side] {
        round % 2 == 0 ? [.folio, .grdb] : [.grdb, .folio]
    }
}

/// What one set of samples measures: seconds for times, KiB for memory.
enum Measurement: Hashable {
    /// Inserting `size` sessions and saving them in one transaction: one sample per round.
    case insertAndSave(size: Int, DurabilityPair)
    /// Opening the store of `size` sessions and fetching them all: the first open after
    /// the save, or the second.
    case reopenAndFetchAll(size: Int, second: Bool)
    /// The C `stat` walk of Folio's `FocusSession/` folder of `size` sessions, right after
    /// the reopens: the floor of seeing hand edits, which every open pays. Recorded under
    /// Folio, one sample per round.
    case statWalk(size: Int)
    /// One session inserted and saved, with 10,000 saved and registered: one sample per save.
    case singleSave(DurabilityPair)
    /// One stroke inserted and saved: one sample per save.
    case strokeSave(DurabilityPair)
    /// All of a session's strokes, each saved on its own: one sample per round.
    case strokeTotal(DurabilityPair)
    /// Resident memory grown by opening the store of 1,000 sessions (KiB), one sample per child process.
    case memoryAfterOpen
    /// Resident memory grown by opening it and fetching every session (KiB).
    case memoryAfterFetch
    /// Heap in use (`mallinfo2`) grown by opening the store of 1,000 sessions (KiB): what
    /// the store keeps, without the allocator's free memory that resident memory counts.
    case heapAfterOpen
    /// Heap in use grown by opening it and fetching every session (KiB).
    case heapAfterFetch
}

/// Every sample taken, by measurement and side.
struct Results {
    private var samples: [Measurement: [Side: Samples]] = [:]

    mutating func record(_ measurement: Measurement, _ side: Side, _ duration: Duration) {
        samples[measurement, default: [:]][side, default: Samples()].append(duration)
    }

    mutating func record(_ measurement: Measurement, _ side: Side, value: Double) {
        samples[measurement, default: [:]][side, default: Samples()].append(value)
    }

    func samples(_ measurement: Measurement, _ side: Side) -> Samples {
        samples[measurement]?[side] ?? Samples()
    }

    /// Folio's statistic over GRDB's, or `nil` when either side has no samples.
    func ratio(_ measurement: Measurement, _ statistic: (Samples) -> Double?) -> Double? {
        guard let folio = statistic(samples(measurement, .folio)), let grdb = statistic(samples(measurement, .grdb)),
            grdb > 0
        else {
            return nil
        }
        return folio / grdb
    }
}

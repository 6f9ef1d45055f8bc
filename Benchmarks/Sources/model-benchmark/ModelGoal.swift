import BenchmarkSupport

/// The issue's goals, each printed with "met" or "MISSED": saves and memory within 2×
/// of GRDB, fetching everything within 1.5×, and the Forest Focus seed's memory budget.
enum ModelGoal {
    case insertAndSave(size: Int, DurabilityPair)
    case reopenAndFetchAll(size: Int, second: Bool)
    case reopenAndFetchAllBesideWalk(size: Int)
    case singleSaveMedian(DurabilityPair)
    case singleSaveP99(DurabilityPair)
    case strokeSaveMedian(DurabilityPair)
    case strokeSaveP99(DurabilityPair)
    case memory
    case heap
    case memoryBudget

    /// The Forest Focus seed's memory budget for 1,000 sessions, in KiB.
    static let budgetKilobytes = 400.0

    /// Every goal the run measured, in the report's order.
    static func all(sizes: [Int]) -> [ModelGoal] {
        let pairs = DurabilityPair.durable
        return pairs.flatMap { [.singleSaveMedian($0), .singleSaveP99($0)] }
            + pairs.flatMap { [.strokeSaveMedian($0), .strokeSaveP99($0)] }
            + sizes.flatMap { size in pairs.map { .insertAndSave(size: size, $0) } }
            + sizes.flatMap { size in
                [
                    .reopenAndFetchAll(size: size, second: false), .reopenAndFetchAll(size: size, second: true),
                    .reopenAndFetchAllBesideWalk(size: size),
                ]
            }
            + [.memory, .heap, .memoryBudget]
    }

    var title: String {
        switch self {
        case .insertAndSave(let size, let pair):
            "insert \(Format.grouped(size)) + save within 2× of GRDB (\(pair.label))"
        case .reopenAndFetchAll(let size, let second):
            "reopen + fetch all \(Format.grouped(size)) within 1.5× of GRDB (\(second ? "second open" : "first open after the save"))"
        case .reopenAndFetchAllBesideWalk(let size):
            "reopen + fetch all \(Format.grouped(size)) (second open) within 1.5× of the stat walk of `FocusSession/` + GRDB's reopen and fetch (issue 22)"
        case .singleSaveMedian(let pair):
            "1 insert + save with 10,000 registered, median, within 2× of GRDB (\(pair.label))"
        case .singleSaveP99(let pair):
            "1 insert + save with 10,000 registered, p99, within 2× of GRDB (\(pair.label))"
        case .strokeSaveMedian(let pair):
            "rowing: 1 stroke insert + save, median, within 2× of GRDB (\(pair.label))"
        case .strokeSaveP99(let pair):
            "rowing: 1 stroke insert + save, p99, within 2× of GRDB (\(pair.label))"
        case .memory:
            "memory for 1,000 sessions (open + fetch all) within 2× of GRDB"
        case .heap:
            "heap for 1,000 sessions (open + fetch all) within 1.5× of GRDB's (issue 22)"
        case .memoryBudget:
            "heap for 1,000 sessions (open + fetch all) within the Forest Focus budget (400 KB, issue 22)"
        }
    }

    /// The measured value and whether it meets the goal; `nil` when it was not measured.
    func outcome(in results: Results) -> (text: String, isMet: Bool)? {
        switch self {
        case .insertAndSave(let size, let pair):
            return Self.ratio(results.ratio(.insertAndSave(size: size, pair), \.median), limit: 2)
        case .reopenAndFetchAll(let size, let second):
            return Self.ratio(results.ratio(.reopenAndFetchAll(size: size, second: second), \.median), limit: 1.5)
        case .reopenAndFetchAllBesideWalk(let size):
            let reopen = Measurement.reopenAndFetchAll(size: size, second: true)
            guard let folio = results.samples(reopen, .folio).median,
                let grdb = results.samples(reopen, .grdb).median,
                let walk = results.samples(.statWalk(size: size), .folio).median
            else { return nil }
            return Self.ratio(folio / (walk + grdb), limit: 1.5)
        case .singleSaveMedian(let pair):
            return Self.ratio(results.ratio(.singleSave(pair), \.median), limit: 2)
        case .singleSaveP99(let pair):
            return Self.ratio(results.ratio(.singleSave(pair)) { $0.percentile(0.99) }, limit: 2)
        case .strokeSaveMedian(let pair):
            return Self.ratio(results.ratio(.strokeSave(pair), \.median), limit: 2)
        case .strokeSaveP99(let pair):
            return Self.ratio(results.ratio(.strokeSave(pair)) { $0.percentile(0.99) }, limit: 2)
        case .memory:
            return Self.ratio(results.ratio(.memoryAfterFetch, \.median), limit: 2)
        case .heap:
            return Self.ratio(results.ratio(.heapAfterFetch, \.median), limit: 1.5)
        case .memoryBudget:
            guard let kilobytes = results.samples(.heapAfterFetch, .folio).median else { return nil }
            return ("\(Format.grouped(Int(kilobytes))) KB", kilobytes <= Self.budgetKilobytes)
        }
    }

    private static func ratio(_ ratio: Double?, limit: Double) -> (text: String, isMet: Bool)? {
        ratio.map { (Format.ratio($0), $0 <= limit) }
    }
}

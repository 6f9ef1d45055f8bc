import BenchmarkSupport

/// Every row measured on stores of one size.
struct SizeResults {
    let documentCount: Int
    let repetitions: Int
    /// What the documents are, for the report.
    let summary: String
    /// A Folio tree of this size as the stat walk found it: its files and disk usage.
    var tree: StatWalk?
    private(set) var times: [StoreRow: [Duration]] = [:]
    /// Document files each timed Folio open or refresh read, per repetition.
    private(set) var filesRead: [StoreRow: [Int]] = [:]

    init(sample: StoreSample, repetitions: Int) {
        documentCount = sample.count
        self.repetitions = repetitions
        let sizes = sample.bytes.map(\.count)
        summary =
            "\(sizes.min() ?? 0)-\(sizes.max() ?? 0) bytes (mean \(sample.totalBytes / max(sample.count, 1))), "
            + "\(Format.decimal(Double(sample.totalBytes) / 1e6, places: 1)) MB in all, in \(Format.grouped(sample.dayFolderCount)) day folders"
    }

    mutating func record(_ row: StoreRow, _ duration: Duration, filesRead count: Int? = nil) {
        times[row, default: []].append(duration)
        if let count { filesRead[row, default: []].append(count) }
    }

    /// The row's median time in seconds, or `nil` when it did not run.
    func seconds(_ row: StoreRow) -> Double? {
        guard let durations = times[row], !durations.isEmpty else { return nil }
        let sorted = durations.sorted()
        let middle = sorted.count / 2
        let median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        return Format.seconds(median)
    }

    /// The row's median over its floor's, or `nil` when either did not run.
    func ratio(_ row: StoreRow) -> Double? {
        guard let floor = row.floor, let time = seconds(row), let floorTime = seconds(floor) else { return nil }
        return time / floorTime
    }
}

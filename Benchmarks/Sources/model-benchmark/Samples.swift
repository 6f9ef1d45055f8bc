import BenchmarkSupport

/// Measured values of one side of one row, in seconds (or KiB for memory), with the
/// statistics the report prints.
struct Samples {
    private(set) var values: [Double] = []

    init() {}

    mutating func append(_ duration: Duration) {
        values.append(Format.seconds(duration))
    }

    mutating func append(_ value: Double) {
        values.append(value)
    }

    var isEmpty: Bool { values.isEmpty }

    var median: Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The nearest-rank percentile: the smallest value at least `fraction` of all values
    /// are at or below (for 600 values, the 594th smallest is the 99th percentile).
    func percentile(_ fraction: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        let rank = Int((fraction * Double(values.count)).rounded(.up))
        return values.sorted()[max(rank, 1) - 1]
    }
}

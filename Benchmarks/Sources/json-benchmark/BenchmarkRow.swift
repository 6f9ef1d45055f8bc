/// Whether a row reads documents (bytes to a tree) or writes them (a tree to bytes).
enum Operation {
    case read, write
}

/// One row of the results table: an implementation that reads or writes every
/// document of a workload.
///
/// A row builds whatever it starts from in `init`, which is not timed; `pass`
/// times each document's work with a stopwatch; `validate` runs afterwards, also
/// untimed, and proves that a pass really did the whole job, so nothing timed can
/// have been skipped or optimized away. What a document's work makes (a tree read,
/// bytes written) is released after the stopwatch stops, for every row alike:
/// freeing a tree is not reading it.
protocol BenchmarkRow {
    /// The row's label in the table.
    static var name: String { get }
    static var operation: Operation { get }

    /// Prepares the row's input from a workload.
    init(workload: Workload) throws

    /// Reads or writes every document once, each under `stopwatch`. Returns the bytes
    /// processed: the input of reads (only documents that parsed count), the output of writes.
    func pass(_ stopwatch: inout Stopwatch) throws -> Int

    /// Checks every document's result in full: the values read, or the bytes written.
    func validate() throws
}

/// Sums the time of the work it is given, and nothing else.
struct Stopwatch {
    private let clock = ContinuousClock()
    private(set) var elapsed = Duration.zero
    /// Documents per stretch of the clock: enough that reading the clock costs nothing
    /// measurable, few enough that what they make stays in the processor's caches.
    static let batchSize = 64

    /// Runs `work` on every input, the clock running over batches of inputs; `then` sees
    /// each input with what its work made, off the clock, before the batch is released.
    mutating func each<Inputs: Collection, Made>(
        _ inputs: Inputs, _ work: (Inputs.Element) throws -> Made, then: (Inputs.Element, Made) -> Void
    ) rethrows {
        var made: [Made] = []
        made.reserveCapacity(Self.batchSize)
        var start = inputs.startIndex
        while start != inputs.endIndex {
            let end = inputs.index(start, offsetBy: Self.batchSize, limitedBy: inputs.endIndex) ?? inputs.endIndex
            let batch = inputs[start..<end]
            try time { for input in batch { made.append(try work(input)) } }
            for (input, result) in zip(batch, made) { then(input, result) }
            made.removeAll(keepingCapacity: true)
            start = end
        }
    }

    /// Runs `work` on the clock and returns what it made, to be released off the clock.
    mutating func time<Made>(_ work: () throws -> Made) rethrows -> Made {
        let start = clock.now
        let made = try work()
        elapsed += clock.now - start
        return made
    }
}

/// Times one pass of a row.
func timedPass(_ row: any BenchmarkRow) throws -> (time: Duration, bytes: Int) {
    var stopwatch = Stopwatch()
    let bytes = try row.pass(&stopwatch)
    return (stopwatch.elapsed, bytes)
}

/// The rows, in table order.
enum Rows {
    static var all: [any BenchmarkRow.Type] {
        [
            FolioRead.self, FolioReadReleasing.self, SerializationRead.self, DecoderRead.self, TypedDecoderRead.self,
            YajlFloorRead.self,
            FolioWrite.self, EncoderWrite.self, TypedEncoderWrite.self, SerializationWrite.self, YajlGenFloorWrite.self,
        ]
    }
}

/// Whether a row reads documents (bytes to a tree) or writes them (a tree to bytes).
enum Operation {
    case read, write
}

/// One row of the results table: an implementation that reads or writes every
/// document of a workload.
///
/// A row builds whatever it starts from in `init`, which is not timed; `pass`
/// is what the clock measures; `validate` runs afterwards, also untimed, and
/// proves that a pass really did the whole job, so nothing timed can have been
/// skipped or optimized away.
protocol BenchmarkRow {
    /// The row's label in the table.
    static var name: String { get }
    static var operation: Operation { get }

    /// Prepares the row's input from a workload.
    init(workload: Workload) throws

    /// Reads or writes every document once. Returns the bytes processed: the input
    /// of reads (only documents that parsed count), the output of writes.
    func pass() throws -> Int

    /// Checks every document's result in full: the values read, or the bytes written.
    func validate() throws
}

/// The rows, in table order.
enum Rows {
    static var all: [any BenchmarkRow.Type] {
        [
            FolioRead.self, SerializationRead.self, DecoderRead.self, TypedDecoderRead.self, YajlFloorRead.self,
            FolioWrite.self, EncoderWrite.self, TypedEncoderWrite.self, SerializationWrite.self, YajlGenFloorWrite.self,
        ]
    }
}

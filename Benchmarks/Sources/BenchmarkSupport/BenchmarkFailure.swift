/// Why the benchmark stopped: bad arguments, or a row that did not do the whole job.
package struct BenchmarkFailure: Error, CustomStringConvertible {
    package let description: String

    package init(_ description: String) {
        self.description = description
    }
}

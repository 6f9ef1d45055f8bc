import BenchmarkSupport
import YajlFloor

/// A document recorded for the yajl_gen floor: the flat list of generator calls
/// that writes it, built once, outside timed code. Owns the C tape.
final class YajlTape {
    let pointer: OpaquePointer

    /// Records the tape of a document's text. Its numbers keep their canonical
    /// text, so replaying the tape formats none.
    init(document: [UInt8]) throws {
        guard let pointer = yajl_floor_tape_create(document, document.count) else {
            throw BenchmarkFailure("YAJL could not record a tape of a document")
        }
        self.pointer = pointer
    }

    deinit {
        yajl_floor_tape_free(pointer)
    }
}

import HeapUse

/// The heap bytes the allocator has handed out, and the process's resident memory, in KiB.
struct HeapUse {
    var heap: Int
    var resident: Int

    /// Now, in this process.
    init() throws {
        heap = heap_bytes_in_use() / 1024
        resident = try ResidentMemory.kibibytes()
    }

    /// Figures measured elsewhere (a child process's).
    init(heap: Int, resident: Int) {
        self.heap = heap
        self.resident = resident
    }

    func growth(since start: HeapUse) -> HeapUse {
        var growth = self
        growth.heap -= start.heap
        growth.resident -= start.resident
        return growth
    }
}

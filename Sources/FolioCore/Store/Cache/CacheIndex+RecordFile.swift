// CacheIndex: the records of an index part being gathered, kept out of memory past a bound.

import Glibc

extension CacheIndex {
    /// The records of a cache file's entries, in the order written, as the index part lays
    /// them out (see `Record`): in memory up to `memoryBound` bytes, past that in a file of
    /// the cache folder, removed from the folder as soon as it is open, so that nothing of it
    /// outlives the process, whatever happens.
    ///
    /// A million documents' records take 96 MB: an import of a folder that size would spend
    /// most of its memory on them. Written once and read back once or twice, in the file they
    /// stay in the page cache, where the system can let them go.
    ///
    /// A class: it owns the file's descriptor, closed when it goes.
    final class RecordFile {
        /// Where the records go past the bound: a folder and a name for the file there.
        private let spill: (folder: OpenFolder, name: String)
        /// The records, until the bound is passed.
        private var buffer: [UInt8] = []
        /// The file, once the bound is passed.
        private var file: AppendingFile?
        /// How many bytes of records are kept in memory before they go to the file.
        private let memoryBound: Int
        /// The usual `memoryBound`: eight megabytes, the records of 87,000 documents.
        static let defaultMemoryBound = 8 << 20

        /// Records kept in memory, or past `memoryBound` bytes in a file `name` of `folder`.
        init(spillingInto folder: OpenFolder, name: String, memoryBound: Int = defaultMemoryBound) {
            (spill, self.memoryBound) = ((folder, name), memoryBound)
        }

        deinit { file?.abandon() }

        /// How many records were added.
        var count: Int { (Int(file?.end ?? 0) + buffer.count) / CacheIndex.recordSize }

        /// Adds a record, which `build` appends to the bytes it is given.
        func append(_ build: (inout [UInt8]) -> Void) throws(FolioError) {
            build(&buffer)
            guard buffer.count >= memoryBound || file != nil else { return }
            if file == nil {
                let descriptor = try spill.folder.openFile(spill.name, flags: O_RDWR | O_CREAT | O_EXCL, mode: 0o600)
                try? spill.folder.removeFile(spill.name)
                file = AppendingFile(descriptor: descriptor, path: spill.folder.pathOf(spill.name))
            }
            try file?.append(buffer)
            buffer.removeAll(keepingCapacity: true)
        }

        /// The bytes of `count` records from the `first`.
        func read(_ first: Int, count: Int) throws(FolioError) -> ArraySlice<UInt8> {
            let (offset, size) = (first * CacheIndex.recordSize, count * CacheIndex.recordSize)
            guard let file = try writtenFile() else { return buffer[offset..<(offset + size)] }
            return try FileSystem.read(file.descriptor, at: Int64(offset), count: size, path: file.path)[...]
        }

        /// Gives record `number` a new stamp.
        func restamp(_ number: Int, _ stamp: FileStamp) throws(FolioError) {
            let offset = number * CacheIndex.recordSize + Record.stampOffset
            guard let file = try writtenFile() else {
                buffer.withUnsafeMutableBytes {
                    stamp.encode(into: UnsafeMutableRawBufferPointer(rebasing: $0[offset...]))
                }
                return
            }
            var bytes = [UInt8](repeating: 0, count: FileStamp.encodedSize)
            bytes.withUnsafeMutableBytes { stamp.encode(into: $0) }
            try file.overwrite(bytes, at: Int64(offset))
        }

        /// The file with every record appended written to it, once the bound is passed.
        private func writtenFile() throws(FolioError) -> AppendingFile? {
            try file?.flush()
            return file
        }
    }
}

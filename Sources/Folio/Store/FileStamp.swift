import Glibc

/// What `stat` says about a file, as far as telling whether it changed: size, modification time and inode.
///
/// Two reads of a file with equal stamps are taken to be the same content, the way
/// git's index does. A stamp taken within `racyWindow` of the file's own mtime may
/// hide a later same-size rewrite in the same clock tick (ext4 stamps files with a
/// coarse clock), so for those the content hash decides instead.
public struct FileStamp: Sendable, Hashable {
    public var size: Int64
    public var modifiedSeconds: Int64
    public var modifiedNanoseconds: Int64
    public var inode: UInt64

    public init(size: Int64, modifiedSeconds: Int64, modifiedNanoseconds: Int64, inode: UInt64) {
        self.size = size
        self.modifiedSeconds = modifiedSeconds
        self.modifiedNanoseconds = modifiedNanoseconds
        self.inode = inode
    }

    init(_ info: stat) {
        self.init(
            size: Int64(info.st_size), modifiedSeconds: Int64(info.st_mtim.tv_sec),
            modifiedNanoseconds: Int64(info.st_mtim.tv_nsec), inode: UInt64(info.st_ino))
    }

    /// How close to "now" a modification time must be for the stamp alone not to be trusted.
    static let racyWindowNanoseconds: Int64 = 50_000_000

    /// Whether the file was modified so recently (relative to `now`) that a same-size
    /// rewrite within the same clock tick could go unseen.
    func isRacy(now: timespec) -> Bool {
        let nowNanoseconds = Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
        let modified = modifiedSeconds * 1_000_000_000 + modifiedNanoseconds
        return nowNanoseconds - modified < Self.racyWindowNanoseconds
    }
}

/// A 64-bit hash of bytes, for content comparisons and cache checksums (not for security).
///
/// FNV-1a over 8-byte words: several GB/s, and any changed byte changes the hash
/// with overwhelming likelihood, which is all a cache check needs.
enum ContentHash {
    static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var running = Running()
        running.add(bytes)
        return running.value
    }

    static func of(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { of($0) }
    }

    /// The hash of bytes given in parts, for a file written as it goes (see `AppendingFile`):
    /// the same value `of` gives for all of them at once, as long as every part but the
    /// last is a whole number of 8-byte words.
    struct Running {
        private var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        private var count = 0

        mutating func add(_ bytes: UnsafeRawBufferPointer) {
            let prime: UInt64 = 0x0000_0100_0000_01B3
            var index = 0
            while index + 8 <= bytes.count {
                hash = (hash ^ bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* prime
                hash ^= hash >> 29
                index += 8
            }
            while index < bytes.count {
                hash = (hash ^ UInt64(bytes[index])) &* prime
                index += 1
            }
            count += bytes.count
        }

        var value: UInt64 { hash ^ UInt64(count) }
    }
}

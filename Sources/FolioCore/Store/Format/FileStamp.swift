import FolioJSON
import Glibc

/// What `stat` says about a file, as far as telling whether it changed: size, modification
/// and change times, inode and device.
///
/// Two reads of a file with equal stamps are taken to be the same content, as git's index
/// does. The modification time alone cannot show that: `touch -r`, `cp -p`, `rsync -t`, `tar`
/// and `git checkout` put back an older one, and a same-size rewrite keeps the size. The
/// change time (ctime) is set by the kernel to its own clock at every change of content,
/// mode, links or name, and no user tool can set it back; with the inode and device it
/// makes a stamp no careless or hostile tool can keep equal across a content change. What
/// that rests on is stated in `docs/format.md` ("What Folio assumes of the file system").
///
/// Times are nanoseconds since 1970, saturated at Int64's range (a time no clock gives,
/// which only `touch -d` can put in a modification time).
public struct FileStamp: Sendable, Hashable {
    /// The file's size in bytes.
    public var size: Int64
    /// The modification time, in nanoseconds since 1970.
    public var modified: Int64
    /// The change time (the inode's ctime), in nanoseconds since 1970.
    public var changed: Int64
    /// The file's inode number, which a rewrite through a temporary file and a rename changes.
    public var inode: UInt64
    /// The device the file is on (`st_dev`); 0 in a stamp from before Folio recorded it.
    public var device: UInt64

    /// A stamp of these values.
    public init(size: Int64, modified: Int64, changed: Int64, inode: UInt64, device: UInt64) {
        (self.size, self.modified, self.changed, self.inode, self.device) = (size, modified, changed, inode, device)
    }

    /// A stamp with the modification time given in seconds and nanoseconds, and the change
    /// time and device left at zero (a stamp from before Folio recorded them).
    public init(size: Int64, modifiedSeconds: Int64, modifiedNanoseconds: Int64, inode: UInt64) {
        self.init(
            size: size, modified: Self.nanoseconds(modifiedSeconds, modifiedNanoseconds), changed: 0, inode: inode,
            device: 0)
    }

    init(_ info: stat) {
        self.init(
            size: Int64(info.st_size), modified: Self.nanoseconds(info.st_mtim),
            changed: Self.nanoseconds(info.st_ctim), inode: UInt64(info.st_ino), device: UInt64(info.st_dev))
    }

    /// The modification time's whole seconds.
    public var modifiedSeconds: Int64 { modified.floorDiv(1_000_000_000) }
    /// The modification time's nanoseconds within its second.
    public var modifiedNanoseconds: Int64 { modified - modifiedSeconds * 1_000_000_000 }

    /// The bytes of a stamp in a cache file: size, modification time, change time, inode and
    /// device, 8 little-endian bytes each (the entries' stamp table and each index record).
    static let encodedSize = 40

    /// A stamp from the first `encodedSize` bytes of `bytes`.
    init(encoded bytes: UnsafeRawBufferPointer) {
        func word(_ index: Int) -> UInt64 {
            UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self))
        }
        self.init(
            size: Int64(bitPattern: word(0)), modified: Int64(bitPattern: word(1)), changed: Int64(bitPattern: word(2)),
            inode: word(3), device: word(4))
    }

    /// Writes the stamp into the first `encodedSize` bytes of `bytes`, as `init(encoded:)` reads it.
    func encode(into bytes: UnsafeMutableRawBufferPointer) {
        for (index, word) in [
            UInt64(bitPattern: size), UInt64(bitPattern: modified), UInt64(bitPattern: changed), inode, device,
        ].enumerated() {
            bytes.storeBytes(of: word.littleEndian, toByteOffset: index * 8, as: UInt64.self)
        }
    }

    /// A time in nanoseconds since 1970, saturated at Int64's range.
    static func nanoseconds(_ time: timespec) -> Int64 {
        nanoseconds(Int64(time.tv_sec), Int64(time.tv_nsec))
    }

    static func nanoseconds(_ seconds: Int64, _ nanoseconds: Int64) -> Int64 {
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return seconds < 0 ? .min : .max }
        let (sum, carry) = scaled.addingReportingOverflow(nanoseconds)
        return carry ? .max : sum
    }

    /// How long after its change a file's stamp is to be distrusted: until the file system's
    /// clock has surely moved on, so that another change must give another change time.
    ///
    /// The kernel stamps files from a clock that ticks every few milliseconds, and some file
    /// systems keep whole seconds (ext4 with small inodes, many NFS and SMB mounts) or two
    /// (FAT). A change time of whole seconds is read as such a file system's, and trusted only
    /// once two seconds have passed; any other after 50 ms, well past a tick. A cache file's
    /// own stamp bounds it too, as git's index does (see `DocumentCache.Writer`).
    var settlingNanoseconds: Int64 {
        changed % 1_000_000_000 == 0 ? 2_050_000_000 : Self.fineSettlingNanoseconds
    }

    /// How long a stamp of a file system with sub-second times is distrusted: 50 ms.
    static let fineSettlingNanoseconds: Int64 = 50_000_000

    /// Whether the file changed so recently (relative to `now`) that another change within
    /// the same tick of the file system's clock could leave this stamp as it is.
    func isRacy(now: timespec) -> Bool {
        let (elapsed, overflow) = Self.nanoseconds(now).subtractingReportingOverflow(changed)
        return overflow || elapsed < settlingNanoseconds
    }

    /// Whether this stamp, taken now, is still `recorded`; a stamp recorded without a change
    /// time and device (`init(size:modifiedSeconds:modifiedNanoseconds:inode:)`, a journal's
    /// plan from an earlier version) is compared on the rest.
    func isStill(_ recorded: FileStamp) -> Bool {
        guard recorded.changed == 0, recorded.device == 0 else { return self == recorded }
        return size == recorded.size && modified == recorded.modified && inode == recorded.inode
    }

    /// Whether `other` is this stamp but for a later change time: the same file, renamed or
    /// relinked since (which sets the change time) and not otherwise touched as far as `stat`
    /// can tell. A file moved into place has its stamp taken again so; a file written in
    /// between has another size, modification time or inode, or the stamp stays the staged
    /// one, which no longer matches and costs one read.
    func isSameFile(renamedAs other: FileStamp) -> Bool {
        size == other.size && modified == other.modified && inode == other.inode && device == other.device
            && other.changed >= changed
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

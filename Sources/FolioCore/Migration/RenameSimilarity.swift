/// How similar git finds two files when it looks for renames, as a score out of 60,000.
///
/// Git cuts each file into chunks that end at a newline or after 64 bytes (a CR before
/// LF is skipped in text), hashes each chunk into one of 107,927 buckets, and counts the
/// bytes per bucket; the bytes of the old file that the new one keeps are, per bucket,
/// the smaller of the two counts. The score is those kept bytes over the larger file's
/// size, or 0 when the sizes differ by more than half the larger one (git's quick
/// rejection at the default 50% threshold). Reimplemented from the behaviour of git's
/// `diffcore-delta.c` and `diffcore-rename.c`.
struct RenameSimilarity {
    /// Git's full score, shown as 100%.
    static let maximumScore = 60_000
    /// The score a pair needs to be shown as a rename by default (`-M50%`).
    static let defaultMinimumScore = 30_000
    private static let hashBase: UInt32 = 107_927

    /// The score, 0 through `maximumScore`.
    let score: Int

    /// The percentage git prints after `similarity index`, rounded down.
    var percent: Int { score * 100 / Self.maximumScore }

    /// Measures how much of `old` a file `new` keeps.
    init(old: [UInt8], new: [UInt8]) {
        let largest = max(old.count, new.count)
        let difference = largest - min(old.count, new.count)
        if largest * (Self.maximumScore - Self.defaultMinimumScore) < difference * Self.maximumScore || new.isEmpty {
            score = 0
            return
        }
        let oldChunks = Self.chunkBytes(old)
        let newChunks = Self.chunkBytes(new)
        var kept = 0
        for (hash, bytes) in oldChunks {
            kept += min(bytes, newChunks[hash] ?? 0)
        }
        score = kept * Self.maximumScore / largest
    }

    /// Bytes per chunk hash; a last chunk with neither newline nor 64 bytes is not counted, as in git.
    private static func chunkBytes(_ bytes: [UInt8]) -> [UInt32: Int] {
        let isText = !GitText.isBinary(bytes)
        var counts: [UInt32: Int] = [:]
        var first: UInt32 = 0
        var second: UInt32 = 0
        var length = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if isText, byte == 0x0D, index < bytes.count, bytes[index] == 0x0A { continue }
            let previousFirst = first
            first = (first << 7) ^ (second >> 25)
            second = (second << 7) ^ (previousFirst >> 25)
            first &+= UInt32(byte)
            length += 1
            guard length >= 64 || byte == 0x0A else { continue }
            let hash = (first &+ second &* 0x61) % hashBase
            counts[hash, default: 0] += length
            length = 0
            first = 0
            second = 0
        }
        return counts
    }
}

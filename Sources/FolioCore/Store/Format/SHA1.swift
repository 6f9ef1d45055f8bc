/// SHA-1 (FIPS 180-4), the digest git names its objects by.
///
/// Here only to compute git blob ids without running git; SHA-1 is not used for
/// anything that needs collision resistance.
struct SHA1 {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32) = (
        0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0
    )
    /// Bytes not yet hashed: always fewer than one 64-byte block.
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    init() { pending.reserveCapacity(64) }

    /// Adds bytes to the message.
    mutating func update(_ bytes: some Collection<UInt8>) {
        length &+= UInt64(bytes.count)
        var index = bytes.startIndex
        while !pending.isEmpty, index != bytes.endIndex {
            pending.append(bytes[index])
            index = bytes.index(after: index)
            if pending.count == 64 {
                compress(pending)
                pending.removeAll(keepingCapacity: true)
            }
        }
        // Whole blocks are hashed where they lie.
        while bytes.distance(from: index, to: bytes.endIndex) >= 64 {
            let end = bytes.index(index, offsetBy: 64)
            compress(bytes[index..<end])
            index = end
        }
        pending.append(contentsOf: bytes[index...])
    }

    /// The 20-byte digest of everything added; the value is spent.
    consuming func finish() -> [UInt8] {
        let bitLength = length &* 8
        var tail = pending
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) {
            tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        for start in stride(from: 0, to: tail.count, by: 64) { compress(tail[start..<start + 64]) }
        var digest: [UInt8] = []
        for word in [state.0, state.1, state.2, state.3, state.4] {
            for shift in stride(from: 24, through: 0, by: -8) {
                digest.append(UInt8(truncatingIfNeeded: word >> UInt32(shift)))
            }
        }
        return digest
    }

    /// The digest of one message.
    static func digest(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var sha = SHA1()
        sha.update(bytes)
        return sha.finish()
    }

    /// Runs the 80 rounds over one 64-byte block.
    private mutating func compress(_ block: some Collection<UInt8>) {
        state = withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 80) { w in
            var index = block.startIndex
            for t in 0..<16 {
                var word: UInt32 = 0
                for _ in 0..<4 {
                    word = word << 8 | UInt32(block[index])
                    index = block.index(after: index)
                }
                w[t] = word
            }
            for t in 16..<80 { w[t] = rotate(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1) }
            var (a, b, c, d, e) = state
            for t in 0..<80 {
                let f: UInt32
                let k: UInt32
                switch t {
                case 0..<20: (f, k) = ((b & c) | (~b & d), 0x5A82_7999)
                case 20..<40: (f, k) = (b ^ c ^ d, 0x6ED9_EBA1)
                case 40..<60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                default: (f, k) = (b ^ c ^ d, 0xCA62_C1D6)
                }
                let temp = rotate(a, 5) &+ f &+ e &+ k &+ w[t]
                (e, d, c, b, a) = (d, c, rotate(b, 30), a, temp)
            }
            return (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e)
        }
    }

    private func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 { value << count | value >> (32 - count) }
}

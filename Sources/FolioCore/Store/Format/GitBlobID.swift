/// The id git gives a file's content: the SHA-1 of `"blob <size>\0"` followed by the bytes.
///
/// It is what `git hash-object` prints and what a diff's `index` line abbreviates, so a
/// diff can name both sides of a change the way git does without a repository.
struct GitBlobID: Hashable, Sendable {
    /// The 20 digest bytes.
    let digest: [UInt8]

    /// The id of a file with these bytes.
    init(content: some Collection<UInt8>) {
        var sha = SHA1()
        sha.update(Array("blob \(content.count)".utf8) + [0])
        sha.update(content)
        digest = sha.finish()
    }

    private init(digest: [UInt8]) { self.digest = digest }

    /// The all-zero id git prints for the missing side of a created or deleted file.
    static let null = GitBlobID(digest: [UInt8](repeating: 0, count: 20))

    /// The 40 hex digits, in lower case.
    var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(40)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The first `length` hex digits (4 to 40), as git abbreviates ids.
    func abbreviated(_ length: Int) -> String { String(hex.prefix(min(max(length, 4), 40))) }
}

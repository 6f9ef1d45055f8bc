import Dispatch
import FolioCore
import FolioJSON
import Foundation
import Glibc
import Synchronization

/// The ids of every document of a store, as git knows every object of a repository: what
/// an id prefix given to a command is looked up in, and what a table's short ids are
/// unique among.
///
/// They are read from the names of the files alone, `<Entity>/<YYYY>/<MM>/<DD>/<UUID>.json`,
/// in one walk that neither reads a document nor asks a file's size or time (the store's
/// own walk, which every `folio query` makes, asks both of each file). Soft-deleted
/// documents are files as the others are, so they count, and `get` and `restore` find
/// them; links are not followed, as the store follows none.
enum DocumentIDs {
    /// An id as a 128-bit number, its first digit highest: the order of ids as text.
    struct Key: Comparable, Hashable {
        var high: UInt64
        var low: UInt64

        /// The number whose first 64 bits are `high`, and last `low`.
        init(high: UInt64, low: UInt64) { (self.high, self.low) = (high, low) }

        /// The number of an id.
        init(_ id: UUID) {
            (high, low) = withUnsafeBytes(of: id.uuid) { bytes in
                (
                    UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self)),
                    UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
                )
            }
        }

        static func < (lhs: Key, rhs: Key) -> Bool { (lhs.high, lhs.low) < (rhs.high, rhs.low) }

        /// How many leading hexadecimal digits two ids share: 32 when they are the same.
        func sharedDigits(with other: Key) -> Int {
            if high != other.high { return (high ^ other.high).leadingZeroBitCount / 4 }
            return 16 + (low ^ other.low).leadingZeroBitCount / 4
        }
    }

    /// The fewest digits a table shows of an id: a UUID's first group, as git shows at least
    /// seven of a commit's. Two ids of a store of 10,000 documents share their first eight
    /// digits about once in 86 stores (n²/2 pairs among 16⁸ starts), of a store of 100,000
    /// about once in each; those two then show as many more as tell them apart.
    static let shortestShown = 8

    /// The documents of the store whose ids start with `prefix`, in the order of their ids.
    static func documents(startingWith prefix: IDPrefix, in store: DocumentStore) -> [(key: Key, path: DocumentPath)] {
        let range = prefix.range
        var found: [(key: Key, path: DocumentPath)] = []
        forEachID(in: store.root) { key, folder in
            guard range.contains(key) else { return }
            let name = folder() + "/" + UUID(key: key).uuidString + ".json"
            if let path = DocumentPath(relativePath: name) { found.append((key, path)) }
        }
        return found.sorted { ($0.key, $0.path) < ($1.key, $1.path) }
    }

    /// Each of `ids` as a table shows it: its start, as git shows a commit's, with the fewest
    /// digits (at least `shortestShown`) that no other id of the store, nor another of
    /// `ids`, starts with, hyphens kept where the UUID has them (`0F6C1E2A`, or
    /// `0F6C1E2A-3B` when another id starts with `0F6C1E2A-3`). Any command takes it back
    /// (see `IDPrefix`); JSON, NDJSON and CSV show ids whole.
    static func abbreviations(of ids: some Sequence<UUID>, in store: DocumentStore) -> [UUID: String] {
        let shown = Set(ids.map(Key.init)).sorted()
        guard !shown.isEmpty else { return [:] }
        // How many digits each shares with the id nearest it: the nearest in the order of
        // ids is the one it shares the most with. First among themselves, then the store's.
        var shared = shown.indices.map { index in
            max(
                index > 0 ? shown[index].sharedDigits(with: shown[index - 1]) : 0,
                index + 1 < shown.count ? shown[index].sharedDigits(with: shown[index + 1]) : 0)
        }
        func compare(_ key: Key) {
            var (low, high) = (0, shown.count)
            while low < high {
                let middle = (low + high) / 2
                if shown[middle] < key { low = middle + 1 } else { high = middle }
            }
            // The id itself (a document of the same id in two folders is one id).
            if low < shown.count, shown[low] == key { return }
            if low > 0 { shared[low - 1] = max(shared[low - 1], shown[low - 1].sharedDigits(with: key)) }
            if low < shown.count { shared[low] = max(shared[low], shown[low].sharedDigits(with: key)) }
        }
        // An entity folder the command's own walk listed (a scan's, say) is not listed again.
        var walked: [UUID] = []
        let listing = { (entity: String) -> Bool in
            guard let ids = store.walkedIdentities(inFolder: entity) else { return true }
            walked += ids
            return false
        }
        forEachID(in: store.root, listing: listing) { key, _ in compare(key) }
        for id in walked { compare(Key(id)) }
        var abbreviations: [UUID: String] = [:]
        for (key, shared) in zip(shown, shared) {
            let id = UUID(key: key)
            var digits = min(max(shared + 1, shortestShown), 32)
            var text = ""
            for character in id.uuidString where digits > 0 {
                if character != "-" { digits -= 1 }
                text.append(character)
            }
            abbreviations[id] = text
        }
        return abbreviations
    }

    /// Hands `body` the id of every file of the store at `root` named as a document is, in
    /// the entity folders `listing` takes (all unless told), and a function that gives its
    /// folder, relative to the root (`Timer/2026/11/22`). The day folders are listed on every
    /// core, as the store's own walk lists them.
    private static func forEachID(
        in root: String, listing: (String) -> Bool = { _ in true }, _ body: (Key, () -> String) -> Void
    ) {
        let days = dayFolders(in: root, listing: listing)
        let found = Mutex([[Key]](repeating: [], count: days.count))
        DispatchQueue.concurrentPerform(iterations: days.count) { index in
            var keys: [Key] = []
            forEachEntry(in: root + "/" + days[index]) { name, _ in
                // `<UUID>.json`: 36 characters and the extension.
                guard name.count == 41, name[36] == UInt8(ascii: "."), name[37] == UInt8(ascii: "j"),
                    name[38] == UInt8(ascii: "s"), name[39] == UInt8(ascii: "o"), name[40] == UInt8(ascii: "n"),
                    let id = UUIDText.parse(UnsafeBufferPointer(rebasing: name[..<36]))
                else { return }
                keys.append(Key(id))
            }
            found.withLock { $0[index] = keys }
        }
        for (day, keys) in zip(days, found.withLock { $0 }) {
            for key in keys { body(key, { day }) }
        }
    }

    /// The day folders of the store at `root`, relative to it: `<Entity>/<YYYY>/<MM>/<DD>`,
    /// of the entity folders `listing` says to list.
    private static func dayFolders(in root: String, listing: (String) -> Bool) -> [String] {
        func isNumber(_ name: String, digits: Int) -> Bool {
            name.utf8.count == digits && name.utf8.allSatisfy { (0x30...0x39).contains($0) }
        }
        var days: [String] = []
        for entity in folders(in: root) where DocumentPath.isIdentifier(entity) && listing(entity) {
            for year in folders(in: root + "/" + entity) where isNumber(year, digits: 4) {
                let yearFolder = entity + "/" + year
                for month in folders(in: root + "/" + yearFolder) where isNumber(month, digits: 2) {
                    let monthFolder = yearFolder + "/" + month
                    for day in folders(in: root + "/" + monthFolder) where isNumber(day, digits: 2) {
                        days.append(monthFolder + "/" + day)
                    }
                }
            }
        }
        return days
    }

    /// The names of the folders in the folder at `path` (not links to folders); none when
    /// it cannot be read.
    private static func folders(in path: String) -> [String] {
        var names: [String] = []
        forEachEntry(in: path) { name, type in
            guard name.first != UInt8(ascii: ".") else { return }
            let text = String(decoding: name, as: UTF8.self)
            var isFolder = type == UInt8(DT_DIR)
            if type == UInt8(DT_UNKNOWN) {
                // A file system that does not say the type in the listing.
                var info = stat()
                isFolder = lstat(path + "/" + text, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
            }
            if isFolder { names.append(text) }
        }
        return names
    }

    /// Hands `body` the name and type (`DT_DIR`, `DT_REG`…) of each entry of the folder at
    /// `path` but `.` and `..`; none when it cannot be read.
    private static func forEachEntry(in path: String, _ body: (UnsafeBufferPointer<UInt8>, UInt8) -> Void) {
        guard let folder = opendir(path) else { return }
        defer { closedir(folder) }
        while let entry = readdir(folder) {
            let type = entry.pointee.d_type
            withUnsafeBytes(of: entry.pointee.d_name) { raw in
                let bytes = raw.bindMemory(to: UInt8.self)
                let name = UnsafeBufferPointer(rebasing: bytes[..<(bytes.firstIndex(of: 0) ?? bytes.count)])
                guard !(name.count == 1 && name[0] == UInt8(ascii: ".")),
                    !(name.count == 2 && name[0] == UInt8(ascii: ".") && name[1] == UInt8(ascii: "."))
                else { return }
                body(name, type)
            }
        }
    }
}

extension UUID {
    /// The id a key is the number of.
    init(key: DocumentIDs.Key) {
        var bytes = uuid_t(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &bytes) { raw in
            raw.storeBytes(of: key.high.bigEndian, as: UInt64.self)
            raw.storeBytes(of: key.low.bigEndian, toByteOffset: 8, as: UInt64.self)
        }
        self.init(uuid: bytes)
    }
}

import FolioJSON
import Foundation

/// Where a document (or one of its blobs) lives in a store: `<Entity>/<YYYY>/<MM>/<DD>/<UUID>.json`.
///
/// Paths are always relative to the store and always valid: an entity name that is
/// an identifier, a real calendar day, a UUID file name. Anything else found on
/// disk is reported, never followed or overwritten.
public struct DocumentPath: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The entity, which is also the top-level folder.
    public var entity: String
    /// The partition day, which names the three folders below the entity.
    public var day: Day
    /// The document's identity, which is its file name.
    public var id: UUID
    /// For a blob of an `.externalStorage` property, that property's name.
    public var blobProperty: String?

    /// A path from parts already known to be valid (from the walk or the cache).
    init(validEntity entity: String, day: Day, id: UUID, blobProperty: String?) {
        self.entity = entity
        self.day = day
        self.id = id
        self.blobProperty = blobProperty
    }

    /// Hashes the identity alone: it tells paths apart almost always, and hashing it is
    /// far cheaper than hashing the entity's name too (equality still compares every part).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
    }

    /// A document's path; throws for an entity name that is not an identifier.
    ///
    /// - Throws: `.invalidInput` when `entity` is not an identifier.
    public init(entity: String, day: Day, id: UUID) throws(FolioError) {
        guard Self.isIdentifier(entity) else {
            throw .invalidInput(
                "entity name \"\(entity)\" is not an identifier (letters, digits and _, not starting with a digit)")
        }
        self.entity = entity
        self.day = day
        self.id = id
    }

    /// The path of the blob that holds one property of this document.
    ///
    /// - Throws: `.invalidInput` when `property` is not an identifier.
    public func blob(_ property: String) throws(FolioError) -> DocumentPath {
        guard Self.isIdentifier(property) else {
            throw .invalidInput("property name \"\(property)\" is not an identifier")
        }
        var path = self
        path.blobProperty = property
        return path
    }

    /// The document this path or blob path belongs to.
    public var document: DocumentPath {
        var path = self
        path.blobProperty = nil
        return path
    }

    /// The folder holding the file, relative to the store.
    public var folder: String { entity + "/" + day.folder }

    /// The file's name: `<UUID>.json`, or `<UUID>.<property>.bin` for a blob.
    ///
    /// The UUID's text is written here rather than taken from `uuidString`, which formats
    /// through `snprintf` and costs as much as the rest of a commit's bookkeeping per file.
    public var fileName: String {
        let suffix = blobProperty.map { "." + $0 + ".bin" } ?? ".json"
        let suffixBytes = suffix.utf8
        return String(unsafeUninitializedCapacity: 36 + suffixBytes.count) { text in
            let hexDigits: StaticString = "0123456789ABCDEF"
            var count = 0
            withUnsafeBytes(of: id.uuid) { bytes in
                for (position, byte) in bytes.enumerated() {
                    if position == 4 || position == 6 || position == 8 || position == 10 {
                        text[count] = UInt8(ascii: "-")
                        count += 1
                    }
                    text[count] = hexDigits.utf8Start[Int(byte >> 4)]
                    text[count + 1] = hexDigits.utf8Start[Int(byte & 0x0F)]
                    count += 2
                }
            }
            for byte in suffixBytes {
                text[count] = byte
                count += 1
            }
            return count
        }
    }

    /// The path relative to the store, with `/` separators.
    public var relativePath: String { folder + "/" + fileName }

    /// The path relative to the store, as `relativePath` spells it.
    public var description: String { relativePath }

    /// The order of the relative paths, compared part by part without building them:
    /// entity, day, then identity (upper-case hex orders as the UUID's bytes do).
    public static func < (lhs: DocumentPath, rhs: DocumentPath) -> Bool {
        if lhs.entity != rhs.entity { return lhs.entity < rhs.entity }
        if lhs.day != rhs.day { return lhs.day < rhs.day }
        if lhs.id != rhs.id {
            return withUnsafeBytes(of: lhs.id.uuid) { left in
                withUnsafeBytes(of: rhs.id.uuid) { right in left.lexicographicallyPrecedes(right) }
            }
        }
        // After the UUID the names go on as "json" or "<property>.bin".
        return (lhs.blobProperty.map { $0 + ".bin" } ?? "json") < (rhs.blobProperty.map { $0 + ".bin" } ?? "json")
    }

    /// A document's place in store order as plain numbers: the day as `YYYYMMDD`, then the
    /// UUID's bytes as two big-endian words (which order as the bytes do). Sorting these
    /// rather than paths moves no string; a cache file's index part keeps its records so.
    struct OrderKey: Comparable {
        var day: UInt32
        var high: UInt64
        var low: UInt64

        init(day: UInt32, high: UInt64, low: UInt64) { (self.day, self.high, self.low) = (day, high, low) }

        init(day: Day, id: UUID) {
            self.day = UInt32((day.year * 100 + day.month) * 100 + day.day)
            let identity = Self.identity(of: id)
            (high, low) = (UInt64(identity >> 64), UInt64(truncatingIfNeeded: identity))
        }

        /// A UUID's bits as `identity` holds them: its bytes as one big-endian number.
        static func identity(of id: UUID) -> UInt128 {
            withUnsafeBytes(of: id.uuid) {
                UInt128(UInt64(bigEndian: $0.loadUnaligned(as: UInt64.self))) << 64
                    | UInt128(UInt64(bigEndian: $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
            }
        }

        /// The day a key's `YYYYMMDD` names; `nil` for one no calendar has.
        static func day(_ number: UInt32) -> Day? {
            let number = Int(number)
            return Day(year: number / 10000, month: number / 100 % 100, day: number % 100)
        }

        /// The identity's bits alone, which tell documents apart whatever their day.
        var identity: UInt128 { UInt128(high) << 64 | UInt128(low) }

        /// The day and the identity the key was made of; `nil` for a day no calendar has.
        var parts: (day: Day, id: UUID)? {
            guard let day = Self.day(day) else { return nil }
            // Zeros to write over: `UUID().uuid` would draw random bytes for each key (a
            // third of an aggregate's time over 200,000 documents).
            var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &uuid) { bytes in
                bytes.storeBytes(of: high.bigEndian, as: UInt64.self)
                bytes.storeBytes(of: low.bigEndian, toByteOffset: 8, as: UInt64.self)
            }
            return (day, UUID(uuid: uuid))
        }

        static func < (lhs: OrderKey, rhs: OrderKey) -> Bool {
            (lhs.day, lhs.high, lhs.low) < (rhs.day, rhs.high, rhs.low)
        }
    }

    /// The document's key in store order (for documents of one folder, not blobs).
    var orderKey: OrderKey { OrderKey(day: day, id: id) }

    /// Parses a relative path; `nil` when it is not in the layout (the caller reports why).
    public init?(relativePath: String) {
        let parts = relativePath.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 5, Self.isIdentifier(parts[0]),
            let day = Day(year: parts[1], month: parts[2], day: parts[3]),
            let (id, property) = Self.parseFileName(parts[4])
        else { return nil }
        self.entity = String(parts[0])
        self.day = day
        self.id = id
        self.blobProperty = property
    }

    /// `<UUID>.json` or `<UUID>.<property>.bin`, from the bytes of a file name; the walk
    /// parses names this way without making a string of each.
    static func parseFileName(_ name: UnsafeBufferPointer<UInt8>) -> (UUID, String?)? {
        guard name.count >= 41, let id = uuid(UnsafeBufferPointer(rebasing: name[0..<36])),
            name[36] == UInt8(ascii: ".")
        else { return nil }
        let rest = UnsafeBufferPointer(rebasing: name[37...])
        if rest.elementsEqual("json".utf8) { return (id, nil) }
        guard rest.count > 4, rest.suffix(4).elementsEqual(".bin".utf8) else { return nil }
        let property = String(decoding: rest.dropLast(4), as: UTF8.self)
        return isIdentifier(property) ? (id, property) : nil
    }

    /// A UUID from its 36 characters of text (either case), without making a string.
    static func uuid(_ text: UnsafeBufferPointer<UInt8>) -> UUID? { UUIDText.parse(text) }

    /// `<UUID>.json` or `<UUID>.<property>.bin`.
    static func parseFileName(_ name: Substring) -> (UUID, String?)? {
        var name = String(name)
        return name.withUTF8 { parseFileName($0) }
    }

    /// Whether a name is an identifier: ASCII letters, digits and `_`, not starting with a digit.
    public static func isIdentifier(_ name: some StringProtocol) -> Bool {
        guard let first = name.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
            return false
        }
        return name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
        }
    }
}

/// A calendar day in the store's time zone: the partition a document is filed under.
public struct Day: Sendable, Hashable, Comparable, CustomStringConvertible {
    // Eight bytes rather than three `Int`s' 24: every path the catalog, the query tables
    // and the models hold has a day.
    private var storedYear: Int32
    private var storedMonth: Int16
    private var storedDay: Int16

    /// The year, 0000 to 9999 for a day an initializer made; setting clamps to `Int32`'s range only.
    public var year: Int {
        get { Int(storedYear) }
        set { storedYear = Int32(clamping: newValue) }
    }
    /// The month, 1 to 12 for a day an initializer made; setting clamps to `Int16`'s range only.
    public var month: Int {
        get { Int(storedMonth) }
        set { storedMonth = Int16(clamping: newValue) }
    }
    /// The day of the month, from 1, for a day an initializer made; setting clamps to `Int16`'s range only.
    public var day: Int {
        get { Int(storedDay) }
        set { storedDay = Int16(clamping: newValue) }
    }

    /// A valid day of the Gregorian calendar, years 0000 to 9999.
    public init?(year: Int, month: Int, day: Int) {
        guard (0...9999).contains(year), (1...12).contains(month), day >= 1,
            day <= CivilCalendar.daysIn(month: Int64(month), year: Int64(year))
        else { return nil }
        storedYear = Int32(year)
        storedMonth = Int16(month)
        storedDay = Int16(day)
    }

    init?(year: Substring, month: Substring, day: Substring) {
        guard year.count == 4, month.count == 2, day.count == 2,
            year.allSatisfy(\.isASCII), month.allSatisfy(\.isASCII), day.allSatisfy(\.isASCII),
            let y = Int(year), let m = Int(month), let d = Int(day)
        else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// The day a moment falls on in the calendar's time zone: the proleptic Gregorian day of
    /// its local time, as its ISO 8601 text names it, for every year; a moment before year
    /// 0000 or after 9999 falls on the first or last day Folio files.
    ///
    /// Not `Calendar.dateComponents`: Foundation's Gregorian calendar turns Julian before
    /// 15 October 1582, which filed `1500-06-15T12:00:00Z` under 1500/06/05 and hid it from
    /// date ranges.
    public init(_ date: Date, in calendar: Calendar) {
        // Clamped well outside years 0000-9999 first, so no conversion below can overflow.
        let seconds = date.timeIntervalSince1970
        let limit = 400_000_000_000.0
        let clamped = seconds.isNaN ? 0 : Int64(min(max(seconds, -limit), limit).rounded(.down))
        let local = clamped + Int64(calendar.timeZone.secondsFromGMT(for: date))
        let (year, month, day) = CivilCalendar.date(fromDaysSinceUnixEpoch: local.floorDiv(86_400))
        if year < 0 {
            self = .earliest
        } else if year > 9999 {
            self = .latest
        } else {
            self.init(year: Int(year), month: Int(month), day: Int(day))!
        }
    }

    /// `YYYY/MM/DD`, written digit by digit (a commit names a folder per document).
    public var folder: String {
        guard (0...9999).contains(year), (0...99).contains(month), (0...99).contains(day) else {
            // Parts set out of range by hand; no initializer makes them.
            return String(format: "%04d/%02d/%02d", year, month, day)
        }
        return String(unsafeUninitializedCapacity: 10) { text in
            func write(_ value: Int, digits: Int, endingAt end: Int) {
                var value = value
                for index in stride(from: end - 1, through: end - digits, by: -1) {
                    text[index] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
            }
            write(year, digits: 4, endingAt: 4)
            text[4] = UInt8(ascii: "/")
            write(month, digits: 2, endingAt: 7)
            text[7] = UInt8(ascii: "/")
            write(day, digits: 2, endingAt: 10)
            return 10
        }
    }

    /// The day as `YYYY-MM-DD`.
    public var description: String { folder.replacingOccurrences(of: "/", with: "-") }

    /// Whether `lhs` comes before `rhs` in the calendar: by year, then month, then day.
    public static func < (lhs: Day, rhs: Day) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}

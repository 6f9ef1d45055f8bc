/// A JSON object: members in the order they were written or inserted.
///
/// Order matters to Folio because documents are read and reviewed as text: a
/// document's members stay where a person or the schema put them. Keys are
/// unique (the reader rejects duplicates, and setting an existing key replaces
/// its value in place). Lookup by key is a linear scan, which is the fastest
/// choice for the dozen or so members a document has.
public struct JSONObject: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
    /// One key and its value.
    public struct Member: Sendable, Hashable {
        /// The member's key, unique within its object.
        public var key: String
        /// The member's value.
        public var value: JSONValue

        /// A member with this key and value.
        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// The members, in order.
    public private(set) var members: [Member]

    /// An empty object.
    public init() { members = [] }

    /// An object of these members, which the caller guarantees have distinct keys.
    init(uniqueMembers: [Member]) { members = uniqueMembers }

    /// An object of these members; a repeated key keeps its last value in its first place.
    /// Inlinable, so that a caller's sequence (a `zip` of keys and values) is walked
    /// specialized, not through generic metadata each step.
    @inlinable
    public init(_ pairs: some Sequence<(String, JSONValue)>) {
        self.init()
        for (key, value) in pairs { self[key] = value }
    }

    /// Members in the order written; a repeated key keeps its last value in its first place.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }

    /// The position of the first member: always 0.
    public var startIndex: Int { members.startIndex }
    /// The position past the last member: the number of members.
    public var endIndex: Int { members.endIndex }
    /// The member at a position, in the object's order; positions are `startIndex..<endIndex`.
    public subscript(position: Int) -> Member { members[position] }

    /// The keys, in order.
    public var keys: [String] { members.map(\.key) }

    /// The position of the member with this key.
    public func index(forKey key: String) -> Int? {
        members.firstIndex { $0.key == key }
    }

    /// The position of the member with this key, looked for from `start` on first, then
    /// before it: for reading several keys in the order they are usually stored, where
    /// each is then found at the first place looked.
    public func index(forKey key: String, from start: Int) -> Int? {
        let start = Swift.min(Swift.max(start, 0), members.count)
        if let found = members[start...].firstIndex(where: { $0.key == key }) { return found }
        return members[..<start].firstIndex { $0.key == key }
    }

    /// The value for a key; setting `nil` removes the member, setting a new key appends it.
    public subscript(key: String) -> JSONValue? {
        get { index(forKey: key).map { members[$0].value } }
        set {
            switch (index(forKey: key), newValue) {
            case (let index?, let value?): members[index].value = value
            case (let index?, nil): members.remove(at: index)
            case (nil, let value?): members.append(Member(key: key, value: value))
            case (nil, nil): break
            }
        }
    }

    /// Removes the member with this key and returns its value.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSONValue? {
        guard let index = index(forKey: key) else { return nil }
        return members.remove(at: index).value
    }

    /// Renames a member where it stands, keeping its value; `false` when there is none.
    /// A member already named `newKey` elsewhere is removed, so keys stay unique.
    @discardableResult
    public mutating func renameMember(_ key: String, to newKey: String) -> Bool {
        guard key != newKey else { return index(forKey: key) != nil }
        if let existing = index(forKey: newKey), index(forKey: key) != nil { members.remove(at: existing) }
        guard let index = index(forKey: key) else { return false }
        members[index].key = newKey
        return true
    }

    /// Inserts a member at a position (for metadata keys that lead a document).
    /// An existing member with the same key is removed first.
    public mutating func insert(_ value: JSONValue, forKey key: String, at position: Int) {
        removeValue(forKey: key)
        members.insert(Member(key: key, value: value), at: Swift.min(position, members.count))
    }
}

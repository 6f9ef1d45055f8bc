import FolioJSON

/// Random model-like documents and random edits of them, for comparing diffs with git.
///
/// Keys, words and object shapes come from small sets, so lines repeat the way they do
/// in real stores (`    },`, `      "done": false`), which is what makes diffs ambiguous.
struct RandomDocuments {
    /// A deterministic generator (SplitMix64), so a failure names the seed that reproduces it.
    struct Dice {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func roll(_ sides: Int) -> Int { Int(next() % UInt64(sides)) }
        mutating func pick<T>(_ choices: [T]) -> T { choices[roll(choices.count)] }
        mutating func chance(_ percent: Int) -> Bool { roll(100) < percent }
    }

    static let keys = [
        "name", "title", "note", "count", "done", "tags", "items", "meta", "kind", "children", "position", "color",
        "due", "owner", "steps",
    ]
    static let words = [
        "tea", "milk", "Ana", "Fix the bike", "", "x", "Évora trip", "read", "run", "a \"quoted\" word",
        "2026-11-22T09:30:00Z",
    ]

    var dice: Dice

    init(seed: UInt64) { dice = Dice(state: seed) }

    /// A document as the model layer writes one: metadata first, then properties.
    mutating func document(size: Int = 8) -> JSONValue {
        var object = JSONObject()
        object["$entity"] = .string(dice.pick(["Habit", "Note", "Errand"]))
        object["$version"] = "1.0.0"
        object["id"] = .string(uuid())
        for _ in 0..<(1 + dice.roll(size)) {
            object[uniqueKey(in: object)] = value(depth: 1)
        }
        return .object(object)
    }

    mutating func scalar() -> JSONValue {
        switch dice.roll(6) {
        case 0: .integer(Int64(dice.roll(4)))
        case 1: .bool(dice.chance(50))
        case 2: .null
        case 3: .double(Double(dice.roll(8)) / 4 + 0.5)
        default: .string(dice.pick(Self.words))
        }
    }

    mutating func value(depth: Int) -> JSONValue {
        if depth >= 4 || dice.chance(55) { return scalar() }
        if dice.chance(50) { return .object(object(depth: depth)) }
        return .array(array(depth: depth))
    }

    mutating func object(depth: Int) -> JSONObject {
        var object = JSONObject()
        for _ in 0..<dice.roll(5) { object[uniqueKey(in: object)] = value(depth: depth + 1) }
        return object
    }

    /// An array of scalars, or of objects of one shape that differ in a value or two.
    mutating func array(depth: Int) -> [JSONValue] {
        let count = dice.roll(6)
        guard dice.chance(60) else { return (0..<count).map { _ in value(depth: depth + 1) } }
        let shape = object(depth: depth + 1)
        return (0..<count).map { _ in .object(variant(of: shape)) }
    }

    /// The same keys, with a value changed now and then.
    mutating func variant(of shape: JSONObject) -> JSONObject {
        var copy = shape
        for member in shape where dice.chance(30) { copy[member.key] = scalar() }
        return copy
    }

    mutating func uniqueKey(in object: JSONObject) -> String {
        var key = dice.pick(Self.keys)
        while object[key] != nil { key = dice.pick(Self.keys) + String(dice.roll(100)) }
        return key
    }

    mutating func uuid() -> String {
        let hex = Array("0123456789ABCDEF")
        let digits = (0..<32).map { _ in hex[dice.roll(16)] }
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(digits[$0]) }
        return parts.joined(separator: "-")
    }

    // MARK: Edits

    /// Applies one random edit at a random depth: a member inserted, removed, changed or
    /// renamed, or an array element inserted (often a copy of a neighbour), removed or changed.
    mutating func edit(_ document: inout JSONValue) {
        let containers = containerPaths(document, prefix: [])
        let path = dice.pick(containers)
        var editor = self
        Self.modify(&document, at: path[...]) { container in editor.edit(container: &container, depth: path.count + 1) }
        self = editor
    }

    /// The index paths of every object and array in a value, the value itself included.
    private func containerPaths(_ value: JSONValue, prefix: [Int]) -> [[Int]] {
        switch value {
        case .object(let object):
            return [prefix]
                + object.enumerated().flatMap { containerPaths($0.element.value, prefix: prefix + [$0.offset]) }
        case .array(let elements):
            return [prefix] + elements.enumerated().flatMap { containerPaths($0.element, prefix: prefix + [$0.offset]) }
        default:
            return []
        }
    }

    private static func modify(_ value: inout JSONValue, at path: ArraySlice<Int>, _ body: (inout JSONValue) -> Void) {
        guard let first = path.first else { return body(&value) }
        switch value {
        case .object(var object):
            let key = object[first].key
            var child = object[first].value
            modify(&child, at: path.dropFirst(), body)
            object[key] = child
            value = .object(object)
        case .array(var elements):
            modify(&elements[first], at: path.dropFirst(), body)
            value = .array(elements)
        default:
            break
        }
    }

    private mutating func edit(container: inout JSONValue, depth: Int) {
        switch container {
        case .object(var object):
            // The document's metadata stays first, as the model layer keeps it.
            let fixed = object.keys.prefix { $0.hasPrefix("$") }.count
            let choice = object.count > fixed ? dice.roll(4) : 0
            switch choice {
            case 0:
                let key = uniqueKey(in: object)
                object.insert(value(depth: depth), forKey: key, at: fixed + dice.roll(object.count - fixed + 1))
            case 1:
                object.removeValue(forKey: object[fixed + dice.roll(object.count - fixed)].key)
            case 2:
                let key = object[fixed + dice.roll(object.count - fixed)].key
                object[key] = dice.chance(70) ? scalar() : value(depth: depth)
            default:
                let position = fixed + dice.roll(object.count - fixed)
                let member = object[position]
                object.removeValue(forKey: member.key)
                object.insert(member.value, forKey: uniqueKey(in: object), at: position)
            }
            container = .object(object)
        case .array(var elements):
            let choice = elements.isEmpty ? 0 : dice.roll(4)
            switch choice {
            case 0:
                let position = dice.roll(elements.count + 1)
                var element = value(depth: depth)
                if !elements.isEmpty, dice.chance(70) {
                    let neighbour = elements[min(position, elements.count - 1)]
                    element = neighbour
                    if case .object(let shape) = neighbour, dice.chance(50) { element = .object(variant(of: shape)) }
                }
                elements.insert(element, at: position)
            case 1:
                elements.remove(at: dice.roll(elements.count))
            case 2:
                elements[dice.roll(elements.count)] = dice.chance(70) ? scalar() : value(depth: depth)
            default:
                let position = dice.roll(elements.count)
                if case .object(let shape) = elements[position] {
                    elements[position] = .object(variant(of: shape))
                } else {
                    elements.insert(elements[position], at: position)
                }
            }
            container = .array(elements)
        default:
            break
        }
    }
}

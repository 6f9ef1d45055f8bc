import FolioJSON

/// Counts the values in a parsed tree (every scalar and container; keys are not
/// values), to check each parser's result against YAJL's count of the same text.
enum ValueCount {
    static func of(_ value: JSONValue) -> Int {
        switch value {
        case .array(let elements): elements.reduce(1) { $0 + of($1) }
        case .object(let object): object.reduce(1) { $0 + of($1.value) }
        default: 1
        }
    }

    /// The count for a tree of Foundation objects, as `JSONSerialization` returns.
    static func of(foundationObject object: Any) -> Int {
        if let dictionary = object as? [String: Any] {
            return dictionary.values.reduce(1) { $0 + of(foundationObject: $1) }
        }
        if let array = object as? [Any] {
            return array.reduce(1) { $0 + of(foundationObject: $1) }
        }
        return 1
    }
}

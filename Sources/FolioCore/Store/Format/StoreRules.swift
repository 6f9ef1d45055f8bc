import FolioJSON

/// Rules an app keeps in its own code that the schema cannot say, recorded in the
/// manifest as `"rules": {"unique": {"DayEntry": [["day"]]}}` so `check` can hold every
/// copy of the store to them, after a git merge above all.
///
/// OneThing keeps one entry per day by fetch-or-create: two devices that each create
/// "today" and then merge are caught only by a rule like this. Live documents count;
/// soft-deleted ones do not, as with `#Unique`.
public struct StoreRules: Sendable, Equatable {
    /// Per entity, each set of properties whose values no two live documents may share.
    public var unique: [String: [[String]]]

    /// Rules; none by default.
    public init(unique: [String: [[String]]] = [:]) {
        self.unique = unique
    }

    /// Whether there are no rules (the manifest then has no `"rules"`).
    public var isEmpty: Bool { unique.isEmpty }

    /// The rules a manifest's `"rules"` member describes.
    ///
    /// - Throws: `.invalidStore` when the member is not shaped as `{"unique": {"Entity": [["property"]]}}`.
    public init(json: JSONValue, path: String) throws(FolioError) {
        self.init()
        let shape = "the manifest's \"rules\" must look like {\"unique\": {\"DayEntry\": [[\"day\"]]}}"
        guard let object = json.objectValue, object.keys.allSatisfy({ $0 == "unique" }) else {
            throw .invalidStore(path: path, reason: shape)
        }
        for member in object["unique"]?.objectValue ?? [:] {
            guard let lists = member.value.arrayValue?.map({ $0.arrayValue?.compactMap(\.stringValue) ?? [] }),
                lists.allSatisfy({ !$0.isEmpty }), lists.count == member.value.arrayValue?.count
            else { throw .invalidStore(path: path, reason: shape) }
            unique[member.key] = lists
        }
    }

    /// The manifest's `"rules"` member.
    public var json: JSONValue {
        let entities = unique.keys.sorted().map {
            ($0, JSONValue.array(unique[$0]!.map { .array($0.map(JSONValue.string)) }))
        }
        return ["unique": .object(JSONObject(entities))]
    }
}

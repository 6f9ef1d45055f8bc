import FolioJSON
import Foundation

/// `folio.json`: the store's format and schema versions, its schema as data, and its time zone.
public struct StoreManifest: Sendable, Equatable {
    /// The storage format version this code writes and reads.
    public static let currentFormatVersion = 1
    /// The file's name at the store's root.
    public static let fileName = "folio.json"

    /// The storage format the store's files follow.
    public var formatVersion: Int
    /// The schema version the documents were last migrated to, as three numbers ("1.0.0").
    public var schemaVersion: String
    /// The time zone whose days name the partition folders; fixed when the store is created.
    public var timeZone: TimeZone
    /// The schema as data: entities, properties, relationships (filled in by the model layer).
    public var schema: JSONValue { didSet { storedSchema = StoredSchema(schema) } }
    /// `schema` read into types, once each time it is set: what readers of the schema use.
    package private(set) var storedSchema: StoredSchema
    /// How `folio merge-driver` settles conflicts; written as `"merge"` only when not the default.
    public var merge: MergePolicy
    /// Rules the app keeps that the schema cannot say, for `check`; written as `"rules"` when there are any.
    public var rules: StoreRules

    /// A manifest of the current format version for a new store: schema version "1.0.0", the
    /// process's time zone and an empty schema unless given, default merge policy and no rules.
    public init(
        schemaVersion: String = "1.0.0", timeZone: TimeZone = .current, schema: JSONValue = [:],
        merge: MergePolicy = MergePolicy(),
        rules: StoreRules = StoreRules()
    ) {
        self.formatVersion = Self.currentFormatVersion
        self.schemaVersion = schemaVersion
        self.timeZone = timeZone
        self.schema = schema
        self.storedSchema = StoredSchema(schema)
        self.merge = merge
        self.rules = rules
    }

    /// Manifests are equal when what `folio.json` holds is: `storedSchema` is read from
    /// `schema`, so comparing it too would only repeat the work.
    public static func == (lhs: StoreManifest, rhs: StoreManifest) -> Bool {
        lhs.formatVersion == rhs.formatVersion && lhs.schemaVersion == rhs.schemaVersion
            && lhs.timeZone == rhs.timeZone && lhs.schema == rhs.schema && lhs.merge == rhs.merge
            && lhs.rules == rhs.rules
    }

    /// The manifest's canonical JSON form.
    public var json: JSONValue {
        var object: JSONObject = [
            "format": "folio-store",
            "formatVersion": .integer(Int64(formatVersion)),
            "schemaVersion": .string(schemaVersion),
            "timeZone": .string(timeZone.identifier),
        ]
        if merge != MergePolicy() { object["merge"] = merge.json }
        if !rules.isEmpty { object["rules"] = rules.json }
        object["schema"] = schema
        return .object(object)
    }

    /// Reads a manifest, checking that this code understands its format. With the file's
    /// `text`, an error names the line and column of the member at fault.
    ///
    /// - Throws: `.invalidStore` for a manifest that is not Folio's, of another format version, or with a
    ///   member missing or not valid (`merge` and `rules` included).
    public init(json: JSONValue, path: String, text: [UInt8]? = nil) throws(FolioError) {
        func location(_ key: String) -> SourceLocation? { text.flatMap { JSONPath([.key(key)]).location(in: $0) } }
        func field<T>(_ key: String, _ convert: (JSONValue) -> T?) throws(FolioError) -> T {
            guard let value = json[key], let converted = convert(value) else {
                throw .invalidStore(
                    path: path, reason: "the manifest lacks a valid \"\(key)\"", location: location(key))
            }
            return converted
        }
        guard json["format"] == "folio-store" else {
            throw .invalidStore(
                path: path, reason: "not a Folio manifest (\"format\" is not \"folio-store\")",
                location: location("format"))
        }
        let version = try field("formatVersion") { if case .integer(let v) = $0 { Int(v) } else { nil } }
        guard version == Self.currentFormatVersion else {
            throw .invalidStore(
                path: path,
                reason: version > Self.currentFormatVersion
                    ? "store format \(version) is newer than this Folio understands (\(Self.currentFormatVersion)); update Folio"
                    : "store format \(version) is older than this Folio reads (\(Self.currentFormatVersion))")
        }
        formatVersion = version
        schemaVersion = try field("schemaVersion", \.stringValue)
        let zone = try field("timeZone", \.stringValue)
        guard let timeZone = Self.timeZone(identifier: zone) else {
            throw .invalidStore(
                path: path, reason: "unknown time zone \"\(zone)\" in the manifest", location: location("timeZone"))
        }
        self.timeZone = timeZone
        schema = json["schema"] ?? [:]
        storedSchema = StoredSchema(schema)
        merge =
            try json["merge"].map { value throws(FolioError) in try MergePolicy(json: value, path: path) }
            ?? MergePolicy()
        rules =
            try json["rules"].map { value throws(FolioError) in try StoreRules(json: value, path: path) }
            ?? StoreRules()
    }

    /// The time zone an identifier names, or `nil`. Foundation traps on some malformed
    /// offset names (`GMT+05:s0`: Swift 6.3.1's `TimeZone.tryParseGMTName` reads the
    /// character after `:` as a digit), so a name that starts as an offset does (`GMT+`,
    /// `UTC-`) is read only when it is one: `GMT+5`, `GMT+05`, `GMT+0530`, `UTC-5:30`, `GMT+05.30`.
    package static func timeZone(identifier: String) -> TimeZone? {
        if identifier.hasPrefix("GMT") || identifier.hasPrefix("UTC"), let sign = identifier.dropFirst(3).first,
            sign == "+" || sign == "-"
        {
            guard identifier.dropFirst(4).wholeMatch(of: /[0-9]{1,2}([:.]?[0-9]{2})?/) != nil else { return nil }
        }
        return TimeZone(identifier: identifier)
    }

    /// The Gregorian calendar in the store's time zone, which files documents under days.
    public var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }
}

extension StoreManifest {
    /// The entities the schema names (`schema.entities`' keys).
    var entityNames: [String] { storedSchema.entityNames }

    /// The entities whose documents have folders of their own, made at creation: all but
    /// those whose class inherits from another model, whose documents are in its root's folder.
    var folderNames: [String] { storedSchema.entities.filter { !$0.hasSuperentity }.map(\.name) }
}

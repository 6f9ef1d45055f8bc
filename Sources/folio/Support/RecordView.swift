import FolioCore
import FolioJSON
import Foundation

/// A record as `folio textconv` shows it to git's diff: its entity and UUID on the first
/// line, then one `property: value` line per member, in the document's own order (metadata,
/// then the properties as declared, then keys the schema does not know). So git's line
/// diff of two versions reads as the properties that changed.
///
/// A date (a `Date` property of the entity, or `$deleted`) shows in the store's time zone
/// with its offset, as a table shows it; a relationship shows the related record's UUID (a
/// to-many its UUIDs in brackets); any other value its JSON text on one line.
struct RecordView {
    /// The time zone dates show in.
    let timeZone: TimeZone
    /// The store's schema, which tells dates and relationships; nil when no manifest was found.
    let schema: StoredSchema?

    /// The view of one record, or nil when `object` is no record (it has no `"$entity"`).
    func text(of object: JSONObject, fileName: String) -> String? {
        guard let entity = object["$entity"]?.stringValue else { return nil }
        let properties = schema?.entity(named: entity)?.properties ?? []
        var dates: Set<String> = ["$deleted"]
        var relationships: Set<String> = []
        for property in properties {
            guard let name = property.name else { continue }
            if property.isRelationship { relationships.insert(name) }
            if ["Date", "Optional<Date>"].contains(property.typeName ?? "") { dates.insert(name) }
        }
        let local = LocalDates(columns: dates, timeZone: timeZone)
        let id = object["id"]?.stringValue ?? object["$id"]?.stringValue ?? Self.id(inFileName: fileName)
        var lines = [entity + " " + id]
        for member in object where member.key != "$entity" {
            let value: String
            if let text = local.text(of: member.value, in: member.key) {
                value = text
            } else if relationships.contains(member.key), case .array(let elements) = member.value,
                elements.allSatisfy({ $0.stringValue != nil })
            {
                value = "[" + elements.compactMap(\.stringValue).joined(separator: ", ") + "]"
            } else if relationships.contains(member.key), let related = member.value.stringValue {
                value = related
            } else {
                value = (try? JSONWriter().line(for: member.value)) ?? "\(member.value)"
            }
            lines.append(member.key + ": " + value)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The UUID a document's file is named for (git's temporary copy has a prefix before it).
    static func id(inFileName name: String) -> String {
        let base = (name as NSString).lastPathComponent
        guard base.hasSuffix(".json"), base.count >= 41 else { return base }
        return String(base.dropLast(5).suffix(36))
    }
}

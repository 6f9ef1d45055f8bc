import FolioJSON
import Foundation

/// What a store check knows of the documents relationships point at, gathered before the
/// documents that point are checked: which identities a folder holds, which of them are
/// soft-deleted, and only the members other documents' checks read (an inverse, the
/// relationship a model count counts by), so a large folder costs its identities alone.
struct RelationshipTargets {
    private var identities: [String: Set<UUID>] = [:]
    private var deleted: [String: Set<UUID>] = [:]
    private var kept: [String: [UUID: JSONObject]] = [:]

    /// Takes in one document of `folder`, keeping the members `names` of its content.
    mutating func add(_ content: JSONObject, at path: DocumentPath, keeping names: Set<String>) {
        identities[path.entity, default: []].insert(path.id)
        if content[ReservedKey.deleted] != nil { deleted[path.entity, default: []].insert(path.id) }
        let members = content.lazy.filter { names.contains($0.key) }.map { ($0.key, $0.value) }
        if !members.isEmpty { kept[path.entity, default: [:]][path.id] = JSONObject(members) }
    }

    /// Forgets what was gathered of one folder, to gather it again.
    mutating func forget(folder: String) {
        identities[folder] = nil
        deleted[folder] = nil
        kept[folder] = nil
    }

    /// The kept members of a document (empty when none was kept); `nil` when the folder
    /// holds no readable document of that identity.
    func document(inFolder folder: String, id: UUID) -> JSONObject? {
        guard identities[folder]?.contains(id) == true else { return nil }
        return kept[folder]?[id] ?? [:]
    }

    /// Whether the folder holds a document of that identity that is not soft-deleted.
    func isLive(inFolder folder: String, id: UUID) -> Bool {
        identities[folder]?.contains(id) == true && deleted[folder]?.contains(id) != true
    }

    /// How many live documents of `folder` hold each value of `member`: the models a to-many
    /// relationship its documents do not keep holds, by the owner's identity.
    func counts(inFolder folder: String, of member: String) -> [JSONValue: Int] {
        var counts: [JSONValue: Int] = [:]
        for id in identities[folder] ?? [] where deleted[folder]?.contains(id) != true {
            counts[kept[folder]?[id]?[member] ?? .null, default: 0] += 1
        }
        return counts
    }
}

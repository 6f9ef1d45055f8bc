import FolioJSON
import Foundation

extension DocumentStore {
    /// The changes that write a document and keep the other side of its relationships
    /// current, as the model layer does: where both sides are stored (many-to-many,
    /// one-to-one), a related document gains this one's identity when linked and loses it
    /// when unlinked. `old` is the stored document this one replaces, if any.
    public func changes(putting document: Document, over old: StoredDocument?) -> [DocumentChange] {
        changes(putting: [(document, old)])
    }

    /// The changes that write several documents in one transaction, with the other
    /// sides of their relationships: a related document touched by several of them (or
    /// itself among them) is written once, with every link.
    public func changes(putting documents: [(document: Document, old: StoredDocument?)]) -> [DocumentChange] {
        let audit = self.audit
        var written = documents.map { (document: $0.document, basedOn: $0.old?.version) }
        var position = Dictionary(
            written.enumerated().map {
                (PersistentIdentifier(entityName: $0.element.document.entity, id: $0.element.document.id), $0.offset)
            }, uniquingKeysWith: { first, _ in first })
        for (document, old) in documents {
            guard
                let entity = audit.schema.entity(of: document.content, inFolder: document.entity)
                    ?? audit.schema.entities[document.entity]
            else { continue }
            for (name, property) in entity.properties {
                guard case .relationship(let destination, _, nil) = property,
                    let inverse = audit.inverse(of: name, in: entity.name),
                    case .relationship(_, let inverseIsToMany, nil)? = audit.schema.entities[destination]?.property(
                        named: inverse)
                else { continue }
                let before = Self.identities(old?.content[name])
                let after = Self.identities(document.content[name])
                for id in before.symmetricDifference(after) {
                    let key = PersistentIdentifier(entityName: destination, id: id)
                    if position[key] == nil {
                        guard let stored = self.document(entity: destination, id: id) else { continue }
                        position[key] = written.count
                        written.append((Document(entity: destination, id: id, content: stored.content), stored.version))
                    }
                    let index = position[key]!
                    var content = written[index].document.content
                    var linked = Self.identities(content[inverse])
                    if after.contains(id) { linked.insert(document.id) } else { linked.remove(document.id) }
                    content[inverse] =
                        inverseIsToMany
                        ? .array(linked.map(\.uuidString).sorted().map(JSONValue.string))
                        : after.contains(id) ? .string(document.id.uuidString) : .null
                    written[index].document.content = content
                }
            }
        }
        return written.map { .put($0.document, basedOn: $0.basedOn) }
    }

    /// Whether `changes(putting:)` for a document of `entity` (or of another entity kept in
    /// its folder) may write other documents too: a relationship whose other side is stored
    /// as well (many-to-many, one-to-one). `importDocuments` writes one folder's documents
    /// only, so an import of such an entity goes through `commit`.
    package func writesOtherSides(of entity: String) -> Bool {
        let audit = self.audit
        let home = audit.schema.folder(of: entity).folder
        for described in audit.schema.entities.values where described.storageName == home {
            for (name, property) in described.properties {
                guard case .relationship(let destination, _, nil) = property,
                    let inverse = audit.inverse(of: name, in: described.name),
                    case .relationship(_, _, nil)? = audit.schema.entities[destination]?.property(named: inverse)
                else { continue }
                return true
            }
        }
        return false
    }

    /// The identities a relationship member holds: one, many, or none.
    private static func identities(_ value: JSONValue?) -> Set<UUID> {
        guard let value else { return [] }
        return Set((value.arrayValue ?? [value]).compactMap { $0.stringValue.flatMap(UUID.init(uuidString:)) })
    }
}

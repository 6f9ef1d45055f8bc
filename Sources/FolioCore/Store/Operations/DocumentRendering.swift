import FolioJSON
import Foundation

/// A document's file as a commit writes it, made before the commit: where it goes, its
/// content with its `"$entity"`, the canonical bytes and their hash, and for an import the
/// compact form its cache entry holds. An import makes these on its reading thread, so the
/// thread that writes the files only writes them.
package struct DocumentRendering: Sendable {
    /// Where the file goes: the day its partition date falls on, else the day of the
    /// version it replaces, else today, in `timeZone`.
    let target: DocumentPath
    let timeZone: TimeZone
    /// The content written: the document's, `"$entity"` first where it had none.
    let content: JSONObject
    /// The file's bytes (`JSONWriter`'s canonical form) and their `ContentHash`.
    let bytes: [UInt8]
    let contentHash: UInt64
    /// The content as the cache holds it; empty where it was not asked for.
    let compact: [UInt8]

    /// The rendering of `document`, replacing `basedOn`, in a store of `schema` whose days
    /// `calendar` reads.
    ///
    /// - Throws: `.misuse` for a document whose `"$entity"` is another entity's (one that is
    ///   not of its hierarchy); `.invalidInput` for an entity name that is no identifier;
    ///   `.invalidDocument` for content JSON cannot hold.
    init(
        of document: Document, basedOn: DocumentVersion?, schema: QuerySchema, calendar: Calendar, compact: Bool
    ) throws(FolioError) {
        var content = document.content
        switch content[ReservedKey.entity] {
        case nil: content.insert(.string(document.entity), forKey: ReservedKey.entity, at: 0)
        case .string(document.entity)?: break
        // A subclass's document, in its hierarchy's root folder.
        case _? where schema.entity(of: content, inFolder: document.entity) != nil: break
        case let other?:
            throw .misuse("document \(document.id) says \"$entity\": \(other) but is written as a \(document.entity)")
        }
        let day = document.partitionDate.map { Day($0, in: calendar) } ?? basedOn?.path.day ?? Day(Date(), in: calendar)
        target = try DocumentPath(entity: document.entity, day: day, id: document.id)
        do { bytes = try JSONWriter().write(.object(content)) } catch {
            throw .invalidDocument(
                path: target.relativePath, reason: "the document cannot be written: \(error.message)")
        }
        var compactBytes: [UInt8] = []
        if compact { CompactJSON.encode(.object(content), into: &compactBytes) }
        self.content = content
        self.compact = compactBytes
        contentHash = ContentHash.of(bytes)
        timeZone = calendar.timeZone
    }
}

/// One document of an import with its file made ahead (`DocumentStore.prepared`), and the
/// version of the stored document it replaces (`nil` for a new one).
package struct PreparedDocument: Sendable {
    /// The document, as `DocumentStore.importDocuments` takes it.
    package let document: Document
    package let basedOn: DocumentVersion?
    /// Its file, made from `document` and nothing else.
    let rendering: DocumentRendering
}

extension DocumentStore {
    /// A document of an import with its file made now: on the thread that reads the
    /// records, so that the one that writes them does not.
    ///
    /// - Throws: what `DocumentRendering` throws.
    package func prepared(_ document: Document, basedOn: DocumentVersion?) throws(FolioError) -> PreparedDocument {
        let (schema, manifest) = memory.schemaAndManifest
        return PreparedDocument(
            document: document, basedOn: basedOn,
            rendering: try DocumentRendering(
                of: document, basedOn: basedOn, schema: schema, calendar: manifest.calendar, compact: true))
    }
}

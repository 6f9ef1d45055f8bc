/// A workload's contents as typed twins: what the typed `JSONEncoder` row starts
/// from and what the typed `JSONDecoder` row must read.
enum TypedContents {
    case records([TypedRecord])
    case archive(TypedArchive)

    init(_ contents: Workload.Contents) throws {
        switch contents {
        case .records(let records): self = .records(try records.map(TypedRecord.init))
        case .archive(let archive): self = .archive(try TypedArchive(archive))
        }
    }
}

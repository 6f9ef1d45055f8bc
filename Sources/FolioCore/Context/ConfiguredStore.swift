/// One configuration of a container and the store it opened. A container with several
/// configurations keeps each entity in the store of the first configuration whose schema
/// holds it (a configuration without a schema takes the entities no other one names).
struct ConfiguredStore: Sendable {
    let configuration: ModelConfiguration
    let store: DocumentStore
    /// The private folder of an in-memory store or of a migrated past revision, removed with the container.
    let temporaryFolder: ScratchFolder?
    /// The copy of a past revision the store reads, held so that no other command changes it meanwhile.
    var revisionCopy: RevisionCopy? = nil
}

/// One configuration of a container and the store it opened. A container with several
/// configurations keeps each entity in the store of the first configuration whose schema
/// holds it (a configuration without a schema takes the entities no other one names).
struct ConfiguredStore: Sendable {
    let configuration: ModelConfiguration
    let store: DocumentStore
    /// The private folder of an in-memory store, removed with the container.
    let temporaryFolder: ScratchFolder?
}

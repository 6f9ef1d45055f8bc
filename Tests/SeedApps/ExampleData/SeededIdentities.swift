import Folio
import Foundation
import Synchronization

/// The identities Folio assigns to models without an `id` of their own (Health Sync's),
/// drawn from a fixed seed instead of at random: passed to `AssignedIdentity.$source`.
final class SeededIdentities: Sendable {
    private let random: Mutex<ExampleRandom>

    init(seed: UInt64) { random = Mutex(ExampleRandom(seed: seed)) }

    /// The next identity.
    func next() -> UUID { random.withLock { $0.uuid() } }
}

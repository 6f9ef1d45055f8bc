@testable import SeedApps

/// The Timer app's `Timer` (seed 000), not Foundation's: both modules are imported here,
/// and a declaration of this module's own settles which one the name means.
typealias Timer = SeedApps.Timer

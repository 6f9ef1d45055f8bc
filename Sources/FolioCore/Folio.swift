@_exported import FolioJSON
// `@Model` expansions name `Observation.ObservationRegistrar`; models import only Folio.
@_exported import Observation

/// Folio's version, as `folio --version` prints it.
public let folioVersion = "0.1.0"

@_exported import FolioJSON

/// Folio's version, as `folio --version` prints it.
public let folioVersion = "0.1.0"

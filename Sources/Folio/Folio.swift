// What apps import: the library (FolioCore, which re-exports FolioJSON and Observation)
// and the macros declared beside this file. The library is a target of its own so that
// whatever needs no macros (the folio tool above all) builds without swift-syntax;
// `Folio.Schema` and the other names the macros' expansions spell with the module
// resolve through this re-export.
@_exported import FolioCore

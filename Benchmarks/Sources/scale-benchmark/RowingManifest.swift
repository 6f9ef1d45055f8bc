import BenchmarkSupport
import Folio
import FolioJSON
import Foundation

/// The store's manifest: the Rowing example store's (`Data/Rowing/folio.json`, copied
/// below as it is), with one addition, an index on `PerformanceMetric.sessionID`
/// (`"indices": [["sessionID"]]` beside the entity's `"unique"`), which the benchmark's
/// queries by session use and the app's models declare with `#Index`.
enum RowingManifest {
    /// `Data/Rowing/folio.json`, byte for byte.
    static let exampleText = #"""
        {
          "format": "folio-store",
          "formatVersion": 1,
          "schemaVersion": "1.0.0",
          "timeZone": "Europe/Berlin",
          "schema": {
            "entities": {
              "Athlete": {
                "properties": [
                  {
                    "name": "id",
                    "type": "UUID",
                    "options": [
                      "unique"
                    ]
                  },
                  {
                    "name": "name",
                    "type": "String"
                  },
                  {
                    "name": "email",
                    "type": "String"
                  },
                  {
                    "name": "teamID",
                    "type": "UUID",
                    "optional": true
                  },
                  {
                    "name": "profileImageData",
                    "type": "Data",
                    "optional": true
                  },
                  {
                    "name": "preferredBoat",
                    "type": "BoatType",
                    "optional": true,
                    "cases": [
                      "Single",
                      "Double",
                      "Four",
                      "Eight"
                    ]
                  },
                  {
                    "name": "weight",
                    "type": "Double",
                    "optional": true
                  },
                  {
                    "name": "height",
                    "type": "Double",
                    "optional": true
                  },
                  {
                    "name": "userRole",
                    "type": "UserRole",
                    "cases": [
                      "athlete",
                      "coach",
                      "admin"
                    ]
                  },
                  {
                    "name": "createdAt",
                    "type": "Date"
                  },
                  {
                    "name": "modifiedAt",
                    "type": "Date"
                  },
                  {
                    "name": "isActive",
                    "type": "Bool"
                  },
                  {
                    "name": "sessions",
                    "destination": "RowingSession",
                    "toMany": true,
                    "deleteRule": "cascade",
                    "inverse": "athlete"
                  }
                ],
                "unique": [
                  [
                    "id"
                  ]
                ]
              },
              "PM5Device": {
                "properties": [
                  {
                    "name": "id",
                    "type": "UUID",
                    "options": [
                      "unique"
                    ]
                  },
                  {
                    "name": "serialNumber",
                    "type": "String"
                  },
                  {
                    "name": "hardwareVersion",
                    "type": "String"
                  },
                  {
                    "name": "firmwareVersion",
                    "type": "String"
                  },
                  {
                    "name": "manufacturer",
                    "type": "String"
                  },
                  {
                    "name": "nickname",
                    "type": "String",
                    "optional": true
                  },
                  {
                    "name": "lastConnected",
                    "type": "Date",
                    "optional": true
                  },
                  {
                    "name": "isActive",
                    "type": "Bool"
                  },
                  {
                    "name": "createdAt",
                    "type": "Date"
                  },
                  {
                    "name": "modifiedAt",
                    "type": "Date"
                  },
                  {
                    "name": "sessions",
                    "destination": "RowingSession",
                    "toMany": true,
                    "deleteRule": "nullify"
                  }
                ],
                "unique": [
                  [
                    "id"
                  ]
                ]
              },
              "RowingSession": {
                "properties": [
                  {
                    "name": "id",
                    "type": "UUID",
                    "options": [
                      "unique"
                    ]
                  },
                  {
                    "name": "athleteID",
                    "type": "UUID"
                  },
                  {
                    "name": "teamID",
                    "type": "UUID",
                    "optional": true
                  },
                  {
                    "name": "pm5DeviceID",
                    "type": "String"
                  },
                  {
                    "name": "sessionType",
                    "type": "SessionType",
                    "cases": [
                      "Training",
                      "Test",
                      "Race"
                    ]
                  },
                  {
                    "name": "startTime",
                    "type": "Date"
                  },
                  {
                    "name": "endTime",
                    "type": "Date",
                    "optional": true
                  },
                  {
                    "name": "totalDistance",
                    "type": "Double"
                  },
                  {
                    "name": "totalTime",
                    "type": "Double"
                  },
                  {
                    "name": "averagePace",
                    "type": "Double"
                  },
                  {
                    "name": "averageStrokeRate",
                    "type": "Double"
                  },
                  {
                    "name": "averagePower",
                    "type": "Double"
                  },
                  {
                    "name": "maxPower",
                    "type": "Double"
                  },
                  {
                    "name": "dragFactor",
                    "type": "Double"
                  },
                  {
                    "name": "isComplete",
                    "type": "Bool"
                  },
                  {
                    "name": "createdAt",
                    "type": "Date"
                  },
                  {
                    "name": "modifiedAt",
                    "type": "Date"
                  },
                  {
                    "name": "athlete",
                    "destination": "Athlete",
                    "toMany": false,
                    "deleteRule": "nullify",
                    "inverse": "sessions"
                  },
                  {
                    "name": "metrics",
                    "destination": "PerformanceMetric",
                    "toMany": true,
                    "deleteRule": "cascade",
                    "inverse": "session"
                  }
                ],
                "unique": [
                  [
                    "id"
                  ]
                ]
              },
              "PerformanceMetric": {
                "properties": [
                  {
                    "name": "id",
                    "type": "UUID",
                    "options": [
                      "unique"
                    ]
                  },
                  {
                    "name": "sessionID",
                    "type": "UUID"
                  },
                  {
                    "name": "timestamp",
                    "type": "Date"
                  },
                  {
                    "name": "distance",
                    "type": "Double"
                  },
                  {
                    "name": "pace",
                    "type": "Double"
                  },
                  {
                    "name": "strokeRate",
                    "type": "Int"
                  },
                  {
                    "name": "power",
                    "type": "Double"
                  },
                  {
                    "name": "strokeCount",
                    "type": "Int"
                  },
                  {
                    "name": "heartRate",
                    "type": "Int",
                    "optional": true
                  },
                  {
                    "name": "strokePhase",
                    "type": "StrokePhase",
                    "cases": [
                      "catch",
                      "drive",
                      "finish",
                      "recovery"
                    ]
                  },
                  {
                    "name": "driveTime",
                    "type": "Double"
                  },
                  {
                    "name": "recoveryTime",
                    "type": "Double"
                  },
                  {
                    "name": "strokeLength",
                    "type": "Double"
                  },
                  {
                    "name": "peakForce",
                    "type": "Double"
                  },
                  {
                    "name": "averageForce",
                    "type": "Double"
                  },
                  {
                    "name": "workPerStroke",
                    "type": "Double"
                  },
                  {
                    "name": "session",
                    "destination": "RowingSession",
                    "toMany": false,
                    "deleteRule": "nullify",
                    "inverse": "metrics"
                  }
                ],
                "unique": [
                  [
                    "id"
                  ]
                ]
              }
            }
          }
        }
        """#

    /// The manifest every store of the benchmark is created with but the import's.
    static func manifest() throws -> StoreManifest {
        try StoreManifest(json: try indexingSessions(seedManifest().json), path: "folio.json")
    }

    /// The seed's manifest as it is, without an index on `sessionID`: the import's store's.
    static func seedManifest() throws -> StoreManifest {
        try StoreManifest(json: try JSONReader().read(exampleText, file: "Data/Rowing/folio.json"), path: "folio.json")
    }

    /// A manifest's JSON with `"indices": [["sessionID"]]` on `PerformanceMetric`.
    static func indexingSessions(_ manifest: JSONValue) throws -> JSONValue {
        guard case .object(var root) = manifest, case .object(var schema)? = root["schema"],
            case .object(var entities)? = schema["entities"],
            case .object(var metric)? = entities["PerformanceMetric"]
        else { throw BenchmarkFailure("the manifest has no PerformanceMetric entity") }
        metric["indices"] = [["sessionID"]]
        entities["PerformanceMetric"] = .object(metric)
        schema["entities"] = .object(entities)
        root["schema"] = .object(schema)
        return .object(root)
    }

    /// Checks that the app's models record exactly this schema, so that a `ModelContainer`
    /// opening the store has nothing to write to its manifest (it would rewrite `folio.json`,
    /// inside the timed open, and `git status` would see it).
    static func checkModels(against manifest: StoreManifest) throws {
        let models = schema
        guard models.json == manifest.schema, models.version.description == manifest.schemaVersion else {
            let written = (try? JSONWriter().write(models.json)).map { String(decoding: $0, as: UTF8.self) } ?? "?"
            throw BenchmarkFailure(
                "the app's models do not record the manifest's schema, so opening the store would rewrite folio.json; "
                    + "the models record:\n\(written)")
        }
    }

    /// The schema of the app's container, in the manifest's order of entities.
    static var schema: Schema {
        Schema([Athlete.self, PM5Device.self, RowingSession.self, PerformanceMetric.self])
    }
}

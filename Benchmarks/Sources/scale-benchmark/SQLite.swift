import BenchmarkSupport
import Foundation
import GRDBSQLite

/// The SQL the peers share: the tables, and text literals.
enum SQL {
    /// `metric`, one row per stroke with the document's properties as columns (`session`
    /// the relationship's UUID), `sessionID` indexed; `session`, one row per session.
    static let schema = """
        CREATE TABLE session (id TEXT PRIMARY KEY, athleteID TEXT NOT NULL, teamID TEXT, pm5DeviceID TEXT NOT NULL,
          sessionType TEXT NOT NULL, startTime TEXT NOT NULL, endTime TEXT, totalDistance REAL NOT NULL,
          totalTime REAL NOT NULL, averagePace REAL NOT NULL, averageStrokeRate REAL NOT NULL,
          averagePower REAL NOT NULL, maxPower REAL NOT NULL, dragFactor REAL NOT NULL, isComplete INTEGER NOT NULL,
          createdAt TEXT NOT NULL, modifiedAt TEXT NOT NULL);
        CREATE TABLE metric (id TEXT PRIMARY KEY, sessionID TEXT NOT NULL, timestamp TEXT NOT NULL,
          distance REAL NOT NULL, pace REAL NOT NULL, strokeRate INTEGER NOT NULL, power REAL NOT NULL,
          strokeCount INTEGER NOT NULL, heartRate INTEGER, strokePhase TEXT NOT NULL, driveTime REAL NOT NULL,
          recoveryTime REAL NOT NULL, strokeLength REAL NOT NULL, peakForce REAL NOT NULL,
          averageForce REAL NOT NULL, workPerStroke REAL NOT NULL, session TEXT);
        """
    static let index = "CREATE INDEX metric_sessionID ON metric(sessionID);"
    static let metricColumns = 17
    static let sessionColumns = 17

    static func text(_ value: String) -> String { "'" + value.replacingOccurrences(of: "'", with: "''") + "'" }

    static func insert(into table: String, _ values: [String]) -> String {
        "INSERT INTO \(table) VALUES (" + values.joined(separator: ",") + ");"
    }
}

/// One SQLite connection through the C API (the system library GRDB links, `GRDBSQLite`).
final class SQLiteDatabase {
    private var handle: OpaquePointer?

    init(path: String, readOnly: Bool = false) throws {
        let flags = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        guard sqlite3_open_v2(path, &handle, flags, nil) == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(handle)
            throw BenchmarkFailure("SQLite cannot open \(path): \(message)")
        }
    }

    // `_v2`: closes once the last statement is finalized, whichever goes first.
    deinit { sqlite3_close_v2(handle) }

    func execute(_ sql: String) throws {
        var error: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &error) == SQLITE_OK else {
            let message = error.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(error)
            throw BenchmarkFailure("SQLite: \(message), in \(sql.prefix(200))")
        }
    }

    func prepare(_ sql: String) throws -> Statement {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw BenchmarkFailure("SQLite cannot prepare \(sql): \(String(cString: sqlite3_errmsg(handle)))")
        }
        return Statement(statement)
    }

    /// A prepared statement: bind, step, read columns, reset.
    final class Statement {
        let pointer: OpaquePointer

        init(_ pointer: OpaquePointer) { self.pointer = pointer }

        deinit { sqlite3_finalize(pointer) }

        /// Binds text (copied by SQLite), a double, an integer or NULL to the 1-based `index`.
        func bind(_ value: SQLiteValue, at index: Int32) {
            switch value {
            case .text(let text):
                // SQLITE_TRANSIENT: SQLite copies the bytes before this returns.
                sqlite3_bind_text(pointer, index, text, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
            case .real(let number): sqlite3_bind_double(pointer, index, number)
            case .integer(let number): sqlite3_bind_int64(pointer, index, Int64(number))
            case .null: sqlite3_bind_null(pointer, index)
            }
        }

        /// Steps once: `true` for a row, `false` when done.
        func step() throws -> Bool {
            switch sqlite3_step(pointer) {
            case SQLITE_ROW: return true
            case SQLITE_DONE: return false
            case let code:
                throw BenchmarkFailure(
                    "SQLite step failed (\(code)): \(String(cString: sqlite3_errmsg(sqlite3_db_handle(pointer))))")
            }
        }

        func reset() {
            sqlite3_reset(pointer)
            sqlite3_clear_bindings(pointer)
        }

        func text(_ column: Int32) -> String? {
            guard let bytes = sqlite3_column_text(pointer, column) else { return nil }
            return String(cString: bytes)
        }

        func real(_ column: Int32) -> Double { sqlite3_column_double(pointer, column) }

        func integer(_ column: Int32) -> Int { Int(sqlite3_column_int64(pointer, column)) }

        func isNull(_ column: Int32) -> Bool { sqlite3_column_type(pointer, column) == SQLITE_NULL }
    }
}

/// A value bound to a statement.
enum SQLiteValue {
    case text(String)
    case real(Double)
    case integer(Int)
    case null
}

extension StrokeRecord {
    var sqliteValues: [SQLiteValue] {
        [
            .text(id.uuidString), .text(sessionID.uuidString), .text(dateText(timestamp)), .real(distance),
            .real(pace), .integer(strokeRate), .real(power), .integer(strokeCount),
            heartRate.map { .integer($0) } ?? .null,
            .text(strokePhase), .real(driveTime), .real(recoveryTime), .real(strokeLength), .real(peakForce),
            .real(averageForce), .real(workPerStroke), .text(sessionID.uuidString),
        ]
    }
}

extension SessionRecord {
    var sqliteValues: [SQLiteValue] {
        [
            .text(id.uuidString), .text(athleteID.uuidString), .null, .text(pm5DeviceID), .text(sessionType),
            .text(dateText(startTime)), .text(dateText(endTime)), .real(totalDistance), .real(totalTime),
            .real(averagePace), .real(averageStrokeRate), .real(averagePower), .real(maxPower), .real(dragFactor),
            .integer(isComplete ? 1 : 0), .text(dateText(createdAt)), .text(dateText(modifiedAt)),
        ]
    }
}

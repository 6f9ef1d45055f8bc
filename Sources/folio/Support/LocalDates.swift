import FolioCore
import FolioJSON
import Foundation

/// The `Date` columns of an entity, shown in a table in the store's time zone with its
/// offset (`2026-10-10T00:00:00+02:00`): the store files documents under its own days, so a
/// UTC time in a table (`2026-10-09T22:00:00Z` under `day >= @2026-10-10`) read as a wrong answer.
/// JSON, NDJSON and CSV keep the stored UTC text.
struct LocalDates {
    let columns: Set<String>
    let calendar: Calendar

    /// The entity's `Date` and `Date?` properties in a store.
    init(entity: String, in store: DocumentStore) {
        self.init(
            columns: Set(
                store.describedProperties(of: entity).compactMap { property in
                    ["Date", "Optional<Date>"].contains(property.typeName ?? "") ? property.name : nil
                }), in: store)
    }

    /// The columns named `columns`, which hold dates, in a store.
    init(columns: Set<String>, in store: DocumentStore) {
        self.init(columns: columns, timeZone: store.manifest.timeZone)
    }

    /// The columns named `columns`, which hold dates, shown in `timeZone`.
    init(columns: Set<String>, timeZone: TimeZone) {
        self.columns = columns
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    /// The cell for a value of a column, or `nil` when it is not a date this shows locally.
    func text(of value: JSONValue, in column: String) -> String? {
        guard columns.contains(column), let date = try? Date(json: value), date.timeIntervalSinceReferenceDate.isFinite
        else { return nil }
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .nanosecond], from: date)
        guard let year = parts.year, (0...9999).contains(year) else { return nil }
        var text = String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d", year, parts.month ?? 1, parts.day ?? 1, parts.hour ?? 0,
            parts.minute ?? 0, parts.second ?? 0)
        let milliseconds = ((parts.nanosecond ?? 0) + 500_000) / 1_000_000
        if milliseconds > 0, milliseconds < 1000 {
            text += "." + String(format: "%03d", milliseconds).replacing(/0+$/, with: "")
        }
        let offset = calendar.timeZone.secondsFromGMT(for: date)
        guard offset != 0 else { return text + "Z" }
        return text + String(format: "%@%02d:%02d", offset < 0 ? "-" : "+", abs(offset) / 3600, abs(offset) % 3600 / 60)
    }
}

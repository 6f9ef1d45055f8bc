import FolioJSON
import Foundation

/// Dates as a person types them, read in a store's time zone: in queries (`@2026-11-01`)
/// and in the tool's values (`startTime=2026-11-01 09:30`).
///
/// Accepted: a full ISO 8601 time as Folio stores dates (`2026-11-01T09:30:00Z`, or with an
/// offset); `now`; `today` (midnight); a day, `2026-11-01` (midnight); a day and a local
/// time, `2026-11-01 09:30`, `2026-11-01T09:30` or with seconds. Nothing else: a day that
/// does not exist (`2026-13-01`, `2026-02-30`) is no date, where a calendar would roll it over.
package enum DateInput {
    package static func date(_ text: String, timeZone: TimeZone, now: Date = Date()) -> Date? {
        if let date = try? ISO8601Timestamp.date(from: .string(text)) { return date }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        switch text {
        case "now": return now
        case "today": return calendar.startOfDay(for: now)
        default: break
        }
        guard
            let match = text.wholeMatch(
                of: /([0-9]{4})-([0-9]{2})-([0-9]{2})(?:[ T]([0-9]{2}):([0-9]{2})(?::([0-9]{2}))?)?/)
        else {
            return nil
        }
        let (_, year, month, day, hour, minute, second) = match.output
        var parts = DateComponents(year: Int(year), month: Int(month), day: Int(day))
        if let hour, let minute {
            parts.hour = Int(hour)
            parts.minute = Int(minute)
            parts.second = second.flatMap { Int($0) } ?? 0
        }
        // Only a date that reads back as written is one: the calendar rolls 2026-13-01 into 2027,
        // and a local time that a daylight-saving change skips into the next hour.
        guard let date = calendar.date(from: parts),
            calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date).matches(parts)
        else { return nil }
        return date
    }
}

extension DateComponents {
    /// Whether every field `written` sets has the same value here.
    fileprivate func matches(_ written: DateComponents) -> Bool {
        year == written.year && month == written.month && day == written.day
            && (written.hour == nil || (hour == written.hour && minute == written.minute && second == written.second))
    }
}

import Foundation

/// The examples' calendar: every date is a fixed moment in the stores' time zone, never
/// the time the generator runs, so the stores come out the same on every machine.
enum ExampleClock {
    /// The zone the example people live in, which the stores record and file days by.
    static let timeZone = TimeZone(identifier: "Europe/Berlin")!

    /// The Gregorian calendar in `timeZone`.
    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }()

    /// A moment on the wall clock in `timeZone`.
    static func date(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0)
        -> Date
    {
        calendar.date(
            from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second))!
    }

    /// The start of the day `days` after the one `date` falls on.
    static func day(_ days: Int, after date: Date) -> Date {
        calendar.date(byAdding: .day, value: days, to: calendar.startOfDay(for: date))!
    }

    /// Seconds after a moment.
    static func seconds(_ seconds: Int, after date: Date) -> Date { date.addingTimeInterval(TimeInterval(seconds)) }

    /// Whether the day of `date` is a Saturday or a Sunday.
    static func isWeekend(_ date: Date) -> Bool {
        let weekday = calendar.component(.weekday, from: date)
        return weekday == 1 || weekday == 7
    }
}

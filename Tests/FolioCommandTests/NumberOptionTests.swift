import FolioTestSupport
import Foundation
import Testing

/// Every number a user can type into a `folio` option is range-checked: a value out of
/// range is refused with exit 64 (bad usage) and a message that names the option and says
/// what to give, and a value in range runs; neither ever traps.
struct NumberOptionTests {
    /// What a careless or hostile user types where a number goes.
    static let hostileValues = [
        "nan", "NaN", "inf", "-inf", "infinity", "1e308", "-1e308", "1e-320", "-1", "0", "-0", "0.5", "86400",
        "86401", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
        String(repeating: "9", count: 400), "0x10", "+3", " 5", "", "ten",
    ]

    /// The options that take a number, each with the range its help documents: whether it
    /// takes a value.
    static let numberOptions: [String: @Sendable (String) -> Bool] = [
        "lock-timeout": { Double($0).map { $0 >= 0 && $0 <= 86_400 } ?? false },
        "limit": { Int64($0).map { $0 >= 0 } ?? false },
        "offset": { Int64($0).map { $0 >= 0 } ?? false },
        // history's token; log's `--since` takes a date, and refuses these before it runs too.
        "since": { Int64($0).map { $0 >= 0 } ?? false },
        "max-count": { Int64($0).map { $0 >= 0 } ?? false },
    ]

    /// The options that take text (names, paths, formats, queries, days): a new option goes
    /// in one list or the other, so a new number cannot miss its check.
    static let textOptions: Set = [
        "store", "format", "author", "entity", "fields", "sort", "time-zone", "schema", "plan", "path-prefix",
        "if-unchanged", "before", "from", "to", "of", "where", "group-by", "default", "data", "migrations",
        "property", "until", "revision", "at",
    ]

    /// The exit codes the tool documents. Foundation reports a process a signal ended (a
    /// trap is SIGILL or SIGTRAP) with the signal's number as its status, which none of these is.
    static let exitCodes: Set<Int32> = [0, 1, 64, 65, 66, 69, 74, 75]

    /// Asserts that a run refused `value` for `--option` with exit 64 and a message.
    static func expectRefusal(_ run: FolioTool.Run, option: String, value: String, in command: [String]) {
        let context = "\(command) --\(option)=\(value.prefix(30)): \(run.status) \(run.errors.prefix(300))"
        #expect(run.status == 64, "\(context)")
        #expect(run.errors.contains("--\(option)"), "\(context)")
        if !value.isEmpty { #expect(run.errors.contains("give a "), "\(context)") }
        #expect(!run.errors.contains("Fatal error"), "\(context)")
    }

    @Test func everyOptionThatTakesAValueIsEitherANumberWithARangeOrText() throws {
        for (command, options) in try FolioTool.optionsByCommand() {
            for option in options {
                #expect(
                    Self.numberOptions[option] != nil || Self.textOptions.contains(option),
                    "folio \(command.joined(separator: " ")) --\(option): say here whether it takes a number")
            }
        }
    }

    @Test func everyCommandRefusesAnOutOfRangeNumberBeforeItRuns() throws {
        let store = try TimerStore()
        for (command, options) in try FolioTool.optionsByCommand() {
            for option in options {
                guard let takes = Self.numberOptions[option] else { continue }
                for value in ["nan", "-1", "1e308", "-9223372036854775809"] where !takes(value) {
                    Self.expectRefusal(
                        try store.folio.run(command + ["--\(option)=\(value)"]), option: option, value: value,
                        in: command)
                }
            }
        }
    }

    /// A command that takes each number option and ends by itself, but `watch`.
    static let runs: [(option: String, command: [String])] = [
        ("lock-timeout", ["count", "Timer"]),
        ("limit", ["query", "Timer", "--fields", "name", "--format", "csv"]),
        ("offset", ["query", "Timer", "--fields", "name", "--format", "csv"]),
        ("limit", ["history", "--format", "csv"]),
        ("since", ["history", "--format", "csv"]),
        ("limit", ["watch", "Timer"]),
    ]

    @Test(arguments: runs.indices)
    func hostileNumbersAreRefusedWithAMessageOrRunWithoutATrap(_ index: Int) throws {
        let (option, command) = Self.runs[index]
        let store = try TimerStore()
        let takes = try #require(Self.numberOptions[option])
        for value in Self.hostileValues {
            // Both spellings: the value as its own argument (a leading - is still the value), and after =.
            for arguments in [command + ["--\(option)", value], command + ["--\(option)=\(value)"]] {
                guard takes(value) else {
                    Self.expectRefusal(try store.folio.run(arguments), option: option, value: value, in: command)
                    continue
                }
                // A watch that may print changes waits for them: killed after a while, it did not trap.
                let waits = command.first == "watch" && Int64(value) != 0
                let run = try store.folio.run(arguments, timeout: waits ? 1.5 : 60)
                #expect(waits ? run.timedOut : run.status == 0, "\(arguments): \(run.status) \(run.errors)")
                #expect(!run.errors.contains("Fatal error"), "\(arguments): \(run.errors)")
            }
        }
    }

    @Test func watchWithALimitOfZeroPrintsNothingAndEndsAtOnce() throws {
        let store = try TimerStore()
        let run = try store.folio.run(["watch", "Timer", "--limit", "0"], timeout: 30)
        #expect(!run.timedOut)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.isEmpty && run.errors.isEmpty, "\(run.output)\(run.errors)")
        // It still checks what it was asked to watch.
        let unknown = try store.folio.run(["watch", "Timr", "--limit", "0"], timeout: 30)
        #expect(unknown.status == 65, "\(unknown.errors)")
        let help = try store.folio("watch", "--help").output.split(whereSeparator: \.isWhitespace).joined(
            separator: " ")
        #expect(help.contains("(--limit 0 prints nothing and ends at once)"), "\(help)")
    }

    @Test func theLargestOffsetAndLimitTogetherFindNothingInsteadOfOverflowing() throws {
        let store = try TimerStore()
        let largest = String(Int64.max)
        for sort in [[], ["--sort", "name"], ["--sort", "-durationInSeconds"]] {
            let run = try store.folio.run(
                ["query", "Timer", "--fields", "name", "--format", "csv", "--offset", largest, "--limit", largest]
                    + sort)
            #expect(run.status == 0, "\(sort): \(run.status) \(run.errors)")
            #expect(run.output == "name\n", "\(sort): \(run.output)")
        }
        let all = try store.folio(
            "query", "Timer", "--fields", "name", "--sort", "name", "--format", "csv",
            "--offset", "1", "--limit", largest)
        #expect(all.output == "name\nWorkout\n", "\(all.output) \(all.errors)")
    }

    @Test func historySinceTheLargestTokenIsEmptyAndSinceAnotherShowsOnlyLaterOnes() throws {
        let store = try TimerStore()
        let largest = try store.folio("history", "--since", String(Int64.max), "--format", "csv")
        #expect(largest.status == 0, "\(largest.errors)")
        #expect(largest.output == "token,timestamp,author,change,entity,id,path,attributes\n")
        let later = try store.folio("history", "--since", "2", "--format", "csv")
        let tokens = later.output.split(separator: "\n").dropFirst().map { $0.prefix { $0 != "," } }
        #expect(tokens == ["3", "4"], "\(later.output)")
        let last = try store.folio("history", "--limit", "1", "--format", "csv")
        #expect(last.output.split(separator: "\n").dropFirst().map { $0.prefix { $0 != "," } } == ["4"])
    }

    @Test func daysWithASignAnEmptyPartOrPastTheCalendarAreRefusedNotReadAsAnotherDay() throws {
        let store = try TimerStore()
        for day in [
            "-1-01-01", "2026--11-01", "2026-11-01-", "+2026-11-01", "10000-01-01", "9223372036854775807-01-01",
            "2026-01-99999999999999999999", "2026-02-29", "2026-13-01", "nan", "2026-11",
        ] {
            let run = try store.folio.run(["ls", "Timer", "--from=\(day)"])
            #expect(run.status == 65, "\(day): \(run.status) \(run.output)")
            #expect(run.errors.contains("is not a day; write it as 2026-11-22"), "\(day): \(run.errors)")
        }
        for (day, listed) in [("0000-01-01", 2), ("2026-11-2", 1), ("2024-02-29", 2), ("9999-12-31", 0)] {
            let run = try store.folio.run(["ls", "Timer", "--from", day, "--format", "csv"])
            #expect(run.status == 0, "\(day): \(run.errors)")
            #expect(run.output.split(separator: "\n").count - 1 == listed, "\(day): \(run.output)")
        }
    }

    @Test func aColumnsVariableOfAnySizeLeavesTablesPrinting() throws {
        let store = try TimerStore()
        for columns in ["nan", "-1", "0", "1", String(Int64.max), String(repeating: "9", count: 400), ""] {
            var folio = store.folio
            folio.environment = ["COLUMNS": columns]
            let run = try folio("query", "Timer", "--fields", "name")
            #expect(run.status == 0, "COLUMNS=\(columns): \(run.errors)")
            #expect(run.output.contains("Workout"), "COLUMNS=\(columns): \(run.output)")
        }
    }
}

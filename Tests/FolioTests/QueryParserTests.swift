import FolioJSON
import FolioTestSupport
import Foundation
import Testing

@testable import FolioCore

/// The text query language: what each form reads as, that printing and reading agree,
/// and errors that point at the column and suggest the nearest property.
struct QueryParserTests {
    static let utc = TimeZone(identifier: "UTC")!

    func parse(_ text: String) throws(FolioError) -> QueryExpression {
        try QueryExpression(parsing: text, timeZone: Self.utc)
    }

    @Test func theIssueExamplesReadAsSwiftWouldGroupThem() throws {
        let november = try #require(
            Calendar(identifier: .gregorian).date(
                from: DateComponents(timeZone: Self.utc, year: 2026, month: 11, day: 1)))
        #expect(
            try parse(#"state == "completed" && (endTime ?? startTime) >= @2026-11-01"#)
                == .and(
                    .compare(.property("state"), .equal, .value(.string("completed"))),
                    .compare(
                        .coalesce(.property("endTime"), .property("startTime")), .greaterOrEqual,
                        .value(.date(november)))))
        // `??` binds tighter than a comparison, so the parentheses are optional, as in Swift.
        #expect(try parse("endTime ?? startTime >= @2026-11-01") == parse("(endTime ?? startTime) >= @2026-11-01"))
        #expect(
            try parse("todoItems.any(!isCompleted)")
                == .any(.property("todoItems"), variable: 1, .not(.member(.variable(1), "isCompleted"))))
        #expect(try parse(#"name ~= "^Work""#) == .text(.matches, .property("name"), .value(.string("^Work"))))
        #expect(try parse(#"tags.contains("x")"#) == .contains(.property("tags"), .value(.string("x"))))
        #expect(
            try parse(#"timer.name == "Tea""#) == .compare(.property("timer", "name"), .equal, .value(.string("Tea"))))
    }

    @Test func operatorsFollowSwiftPrecedence() throws {
        #expect(try parse("a || b && c") == .or(.property("a"), .and(.property("b"), .property("c"))))
        #expect(
            try parse("a + b * c > 2")
                == .compare(
                    .arithmetic(.property("a"), .add, .arithmetic(.property("b"), .multiply, .property("c"))), .greater,
                    .value(.integer(2))))
        #expect(
            try parse("a - b - c")
                == .arithmetic(.arithmetic(.property("a"), .subtract, .property("b")), .subtract, .property("c")))
        #expect(try parse("a ?? b ?? c") == .coalesce(.property("a"), .coalesce(.property("b"), .property("c"))))
        #expect(
            try parse("!done && -duration < -5")
                == .and(.not(.property("done")), .compare(.negate(.property("duration")), .less, .value(.integer(-5)))))
        #expect(try parse("done ? 1 : 2") == .conditional(.property("done"), .value(.integer(1)), .value(.integer(2))))
        #expect(
            try parse("duration % 60 == 0.5e1")
                == .compare(
                    .arithmetic(.property("duration"), .remainder, .value(.integer(60))), .equal, .value(.double(5))))
    }

    @Test func methodsAndCollectionsRead() throws {
        #expect(
            try parse("todoItems.filter(isCompleted).count >= 2")
                == .compare(
                    .count(.filter(.property("todoItems"), variable: 1, .member(.variable(1), "isCompleted"))),
                    .greaterOrEqual, .value(.integer(2))))
        #expect(
            try parse(#"todoItems.all(title.hasPrefix("A"))"#)
                == .all(
                    .property("todoItems"), variable: 1,
                    .text(.startsWith, .member(.variable(1), "title"), .value(.string("A")))))
        #expect(
            try parse(#"tags.any($0.hasSuffix("x"))"#)
                == .any(.property("tags"), variable: 1, .text(.endsWith, .variable(1), .value(.string("x")))))
        #expect(try parse("tags.isEmpty") == .compare(.count(.property("tags")), .equal, .value(.integer(0))))
        #expect(
            try parse(#"title.localizedStandardContains("tea") || name.caseInsensitiveEquals("work")"#)
                == .or(
                    .text(.containsIgnoringCase, .property("title"), .value(.string("tea"))),
                    .text(.equalsIgnoringCase, .property("name"), .value(.string("work")))))
        #expect(
            try parse(#"title.starts(with: "A") && items.contains(where: done)"#)
                == .and(
                    .text(.startsWith, .property("title"), .value(.string("A"))),
                    .any(.property("items"), variable: 1, .member(.variable(1), "done"))))
        #expect(
            try parse(#"state == nil || state == "a\"b\u{1F600}""#)
                == .or(
                    .compare(.property("state"), .equal, .value(.null)),
                    .compare(.property("state"), .equal, .value(.string("a\"b😀")))))
        #expect(
            try parse("[1, 2.5, \"x\", -3].contains(priority)")
                == .contains(
                    .value(.array([.integer(1), .double(2.5), .string("x"), .integer(-3)])), .property("priority")))
    }

    @Test func datesAreDaysInTheTimeZoneOrFullTimes() throws {
        let lisbon = TimeZone(identifier: "Asia/Tokyo")!
        let midnight = try QueryExpression(parsing: "day == @2026-03-01", timeZone: lisbon)
        #expect(
            midnight == .compare(.property("day"), .equal, .value(.date(Date(timeIntervalSince1970: 1_772_290_800)))))
        #expect(
            try parse("t < @2026-11-01T10:30:00Z")
                == .compare(.property("t"), .less, .value(.date(Date(timeIntervalSince1970: 1_793_529_000)))))
        #expect(try parse("t < @2026-11-01T12:30:00+02:00") == parse("t < @2026-11-01T10:30:00Z"))
        #expect(throws: FolioError.self) { try parse("t < @2026-02-30") }
        // A local time is read in the store's time zone; today is its midnight.
        let morning = try QueryExpression(parsing: "t > @2026-03-01T09:30", timeZone: lisbon)
        #expect(
            morning
                == .compare(
                    .property("t"), .greater, .value(.date(Date(timeIntervalSince1970: 1_772_290_800 + 9.5 * 3600)))))
        guard
            case .compare(_, _, .value(.date(let today))) = try QueryExpression(
                parsing: "t >= @today", timeZone: lisbon)
        else {
            Issue.record("@today is not a date")
            return
        }
        var tokyo = Calendar(identifier: .gregorian)
        tokyo.timeZone = lisbon
        #expect(
            today == tokyo.startOfDay(for: Date()) || today == tokyo.startOfDay(for: Date().addingTimeInterval(-60)))
        // Days and times that do not exist are errors at their column, never rolled over into another day.
        for text in [
            "t < @2026-13-01", "t < @2026-00-10", "t < @2026-04-31", "t < @2026-13-01T00:00:00Z",
            "t < @2026-11-01T25:00:00Z", "t < @2026-11-01T10:61:00Z",
            "t < @2026-11-01T24:00", "t < @tomorrow",
        ] {
            let message =
                "@\(text.dropFirst(5)) is not a date; write @2026-11-01, @2026-11-01T09:30 (the store's time zone), @2026-11-01T09:30:00Z, @today or @now"
            #expect(throws: FolioError.invalidQuery(query: text, column: 5, message: message)) {
                try parse(text)
            }
        }
    }

    @Test func printingThenReadingGivesTheSameTree() throws {
        let texts = [
            #"state == "completed" && (endTime ?? startTime) >= @2026-11-01T00:00:00Z"#,
            "todoItems.any(!isCompleted && sortOrder > 2)",
            #"name ~= "^Work" || tags.contains("x")"#, "(a + b) * c - -d / 2 % 3 != 1.5", "done ? x : y ?? z",
            #"todoItems.filter(title.hasPrefix("A")).count == todoItems.count"#, "!(a || b) && timer.name == nil",
            "tags.map($0.count > 1) == true", "[1, 2].contains(priority) && tags.all(!$0.isEmpty)",
            "todoItems.any(sortOrder > self.limit)", "-(5) < -duration",
        ]
        for text in texts {
            let tree = try parse(text)
            #expect(try parse(tree.queryText) == tree, "\(text) printed as \(tree.queryText)")
        }
        // Trees the parser does not make but the printer must still write readably.
        let outer: QueryExpression = .any(
            .property("todoItems"), variable: 1,
            .compare(.member(.variable(1), "sortOrder"), .greater, .member(.root, "limit")))
        #expect(try parse(outer.queryText) == outer)
        let negated: QueryExpression = .compare(.negate(.value(.integer(5))), .less, .property("duration"))
        #expect(try parse(negated.queryText) == negated)
    }

    @Test func errorsShowTheColumnWithACaret() throws {
        func message(_ text: String) -> String {
            do {
                _ = try parse(text)
                return "parsed"
            } catch { return error.description }
        }
        #expect(message(#"name == "Tea"#).contains("no closing \" (column 9)"))
        #expect(message("a == (b").contains("expected ) to close the ( at column 6 (column 8)"))
        #expect(message("a == == b").contains("found == (column 6)"))
        #expect(message(#"a ~= "(""#).contains("is not a regular expression"))
        #expect(message("a < b < c").contains("do not chain"))
        #expect(message("a # b") == "error: # is not part of the query language (column 3)\n  a # b\n    ^")
        #expect(
            message(#"title = "Dune""#).hasPrefix(
                "error: = is not part of the query language; compare with == (column 7)"))
        #expect(message("a & b").contains("write &&"))
        // Another language's way of writing a logical operator or text is named with Swift's.
        #expect(
            message(#"a == "x" and b"#).hasPrefix(
                "error: and is not an operator of the query language; write &&, as in Swift (column 10)"))
        #expect(message("a OR b").hasPrefix("error: OR is not an operator of the query language; write ||"))
        #expect(message("a == 'x'").contains(#"' is not part of the query language; write text in double quotes"#))
    }

    @Test func unknownPropertiesSuggestTheNearest() throws {
        let folder = try TemporaryDirectory()
        let context = ModelContext(
            try ModelContainer(
                for: Errand.self, Household.self,
                configurations: ModelConfiguration(url: folder.url.appendingPathComponent("E"), durability: .none)))
        let store = context.container.store(of: "Errand")
        #expect(
            throws: FolioError.invalidQuery(
                query: "prority > 2", column: 1, message: "Errand has no property prority; did you mean priority?")
        ) {
            try store.parseQuery("prority > 2", entity: "Errand")
        }
        // Through relationships and into a to-many's elements.
        #expect(throws: FolioError.self) { try store.parseQuery(#"household.nam == "North""#, entity: "Errand") }
        #expect(throws: FolioError.self) { try store.parseQuery("errands.any(don)", entity: "Household") }
        do {
            _ = try store.parseQuery("zzzzzz", entity: "Household")
            Issue.record("an unknown property was accepted")
        } catch {
            #expect(error.description.contains("its properties are name, errands"))
        }
        #expect(
            throws: FolioError.invalidQuery(
                query: "not done", column: 1,
                message: "Errand has no property not; to negate, write ! in front, as in Swift")
        ) {
            try store.parseQuery("not done", entity: "Errand")
        }
        #expect(try store.parseQuery(#"errands.any(done && household.name == "x")"#, entity: "Household") != .root)
    }

    @Test func parsedQueriesRunOnAStore() throws {
        let folder = try TemporaryDirectory()
        let context = ModelContext(
            try ModelContainer(
                for: Errand.self, Household.self,
                configurations: ModelConfiguration(url: folder.url.appendingPathComponent("E"), durability: .none)))
        let north = Household(name: "North")
        for number in 0..<10 {
            let errand = Errand(
                title: "Errand \(number)", code: "E\(number)", priority: number % 3, done: number.isMultiple(of: 2),
                due: Date(timeIntervalSince1970: 1_789_992_000 + Double(number) * 86_400), estimate: nil, note: nil,
                tags: number > 6 ? ["late"] : [])
            context.insert(errand)
            if number < 4 { errand.household = north }
        }
        try context.save()
        let store = context.container.store(of: "Errand")
        func codes(_ entity: String, _ text: String) throws -> [String] {
            try store.query(
                DocumentQuery(
                    entity: entity, filter: store.parseQuery(text, entity: entity), sort: [.init(.property("code"))])
            )
            .matches.compactMap { $0.stored?.content["code"]?.stringValue ?? $0.stored?.content["name"]?.stringValue }
        }
        #expect(try codes("Errand", "priority == 2 && !done") == ["E5"])
        #expect(try codes("Errand", #"household.name == "North" && priority > 0"#) == ["E1", "E2"])
        #expect(try codes("Errand", #"tags.contains("late") || code ~= "^E[01]$""#) == ["E0", "E1", "E7", "E8", "E9"])
        #expect(try codes("Household", "errands.filter(done).count == 2") == ["North"])
        #expect(try codes("Errand", "due >= @2026-09-25 && due < @2026-09-27") == ["E4", "E5"])
    }

    @Test func nestingPastTheLimitIsAnErrorAtItsColumnNotACrash() throws {
        func column(_ text: String) -> Int? {
            do {
                _ = try parse(text)
                return nil
            } catch {
                guard error.kind == .invalidQuery, error.reason.contains("nests more than") else { return -1 }
                return error.location?.column ?? -1
            }
        }
        let depth = QueryParser.maximumNesting
        // Each of these crashed with signal 11 before the parser counted its levels.
        #expect(column(String(repeating: "(", count: 600) + "done" + String(repeating: ")", count: 600)) == depth + 1)
        #expect(column(String(repeating: "!", count: 5_000) + "done") == depth + 1)
        #expect(column(String(repeating: "-", count: 5_000) + "1 > 0") == depth + 1)
        #expect(column(Array(repeating: "a", count: 5_000).joined(separator: " ?? ") + " == 1") != nil)
        #expect(
            column(String(repeating: "[", count: 5_000) + "1" + String(repeating: "]", count: 5_000) + ".contains(a)")
                == depth + 1)
        #expect(
            column(String(repeating: "tags.any(", count: 2_000) + "true" + String(repeating: ")", count: 2_000)) != nil)
        #expect(column(String(repeating: "a ? b : ", count: 2_000) + "c") != nil)
        // Just inside the limit reads, and prints back to the same tree.
        let deepest = String(repeating: "(", count: depth - 1) + "done" + String(repeating: ")", count: depth - 1)
        #expect(try parse(deepest) == .property("done"))
        let negations = try parse(String(repeating: "!", count: depth - 1) + "done")
        #expect(try parse(negations.queryText) == negations)
    }

    @Test func longChainsOfAndAndOrReadAsShallowTreesAndRun() throws {
        let terms = (0..<5_000).map { "priority != \($0 + 10)" }
        let conjunction = try parse(terms.joined(separator: " && "))
        #expect(conjunction.depth <= 16)
        #expect(conjunction.operands(of: .and).count == 5_000)
        // Grouped any way, a chain is the same tree; printed, it reads back to itself.
        #expect(try parse("(a && b) && (c && d)") == parse("a && (b && (c && d))"))
        #expect(try parse("a || (b || c) || d") == parse("a || b || c || d"))
        #expect(try parse(conjunction.queryText) == conjunction)
        #expect(
            try parse("a && b || c && d")
                == .or(.and(.property("a"), .property("b")), .and(.property("c"), .property("d"))))

        let folder = try TemporaryDirectory()
        let context = ModelContext(
            try ModelContainer(
                for: Errand.self, Household.self,
                configurations: ModelConfiguration(url: folder.url.appendingPathComponent("E"), durability: .none)))
        for number in 0..<4 {
            context.insert(
                Errand(
                    title: "E\(number)", code: "E\(number)", priority: number, done: false, due: Date(), estimate: nil,
                    note: nil, tags: []))
        }
        try context.save()
        let store = context.container.store(of: "Errand")
        let all = try store.query(
            DocumentQuery(entity: "Errand", filter: store.parseQuery(terms.joined(separator: " && "), entity: "Errand"))
        )
        #expect(all.total == 4)
        let none = try store.query(
            DocumentQuery(
                entity: "Errand",
                filter: store.parseQuery(
                    "(" + terms.joined(separator: " || ") + ") && priority > 100", entity: "Errand")))
        #expect(none.total == 0)
    }

    @Test func treesDeeperThanTheLimitAreRefusedWherePrintingOrRunningThemWould() throws {
        do {
            _ = try parse((0..<5_000).map { _ in "1" }.joined(separator: " + ") + " > 3")
            Issue.record("a chain of 5,000 additions was accepted")
        } catch {
            #expect(error.description.contains("5001 levels deep, more than the 256"))
        }
        #expect(try parse((0..<200).map { _ in "1" }.joined(separator: " + ") + " > 3").depth == 201)

        // A tree built in code, too deep for the parser to have made: the store refuses it.
        let folder = try TemporaryDirectory()
        let context = ModelContext(
            try ModelContainer(
                for: Errand.self, Household.self,
                configurations: ModelConfiguration(url: folder.url.appendingPathComponent("E"), durability: .none)))
        context.insert(
            Errand(title: "E", code: "E", priority: 1, done: false, due: Date(), estimate: nil, note: nil, tags: []))
        try context.save()
        let deep = (0..<3_000).reduce(QueryExpression.property("done")) { tree, _ in .not(tree) }
        #expect(deep.depth == 3_002)
        #expect(throws: FolioError.self) {
            try context.container.store(of: "Errand").query(DocumentQuery(entity: "Errand", filter: deep))
        }
        #expect(throws: FolioError.self) {
            try context.container.store(of: "Errand").query(DocumentQuery(entity: "Errand", sort: [.init(deep)]))
        }
        #expect(throws: FolioError.self) {
            try context.container.store(of: "Errand").aggregate(
                DocumentQuery(entity: "Errand"), QueryAggregate(.count), groupedBy: [deep])
        }
    }

    // Found by Fuzz/query-fuzzer (parse, print, parse again must give the same tree), and
    // by reading the printer against the lexer.
    @Test func everyPrintedQueryReadsBackAsTheSameTree() throws {
        let printed = [
            "(-5).count == 1": "(-5).count == 1",
            "(-1.5).x": "(-1.5).x",
            "--5 < -(5)": "--5 < -(5)",
            #"-"a" == -true"#: #"-"a" == -true"#,
            "@2026-11-01T09:30:00.5+02:00 .count": "@2026-11-01T07:30:00.5Z .count",
            "$0.nil == $0.self && $0.true != $0.null": "$0.nil == $0.self && $0.true != $0.null",
            "a.any($0.false && self.nil)": "a.any($0.false && self.nil)",
            #""\u{301}" == x"#: #""\u{301}" == x"#,
            #"x == "a\u{600}" || x == "\u{600}\"\u{301}""#: #"x == "a\u{600}" || x == "\u{600}\"\u{301}""#,
            "x == \"e\u{301}\"": "x == \"e\u{301}\"",
            "a ? b ? 1 : 2 : 3": "a ? b ? 1 : 2 : 3",
            "!x.isEmpty && (x ~= \"a\").count > 0": "!x.isEmpty && x.matches(\"a\").count > 0",
        ]
        for (text, expected) in printed {
            let tree = try parse(text)
            #expect(tree.queryText == expected, "\(text)")
            #expect(try parse(tree.queryText) == tree, "\(text) printed as \(tree.queryText)")
        }
        // Printing adds no nesting the parser would refuse, however deep the tree is.
        let deep = [
            "x" + String(repeating: ".isEmpty", count: 120),
            "x" + String(repeating: #".matches("a")"#, count: 150),
            String(repeating: "a ? ", count: 60) + "1" + String(repeating: " : 2", count: 60),
            String(repeating: "!", count: 98) + #"-"a""#,
            String(repeating: "!", count: 97) + "--5",
            String(repeating: "!", count: 98) + "@2026-11-01 .x",
        ]
        for text in deep {
            let tree = try parse(text)
            #expect(try parse(tree.queryText) == tree, "\(text.prefix(40))...")
        }
    }

    @Test func constantsNoQueryCouldWriteBackAreRefused() throws {
        func message(_ text: String) -> String {
            do {
                return "parsed as \(try parse(text).queryText)"
            } catch { return error.description }
        }
        #expect(
            message("1e400 > x").hasPrefix("error: 1e400 is too large for a 64-bit floating-point number (column 1)"))
        #expect(
            message("x > @0000-01-01T00:00:00+01:00").contains(
                "outside the years 0000 to 9999 (in UTC), the dates a query can write (column 5)"))
        #expect(message("x > @10000-1-01").contains("is not a date"), "a day has a four-digit year")
        for text in [
            "@NaN", "@Infinity", "@0000-01-01T00:00:00ZA", "@2026-11-01T09:30:00+0200",
            "@2-1-1T9:3:0.12596666666666666666666663685477580",
        ] {
            #expect(message(text).hasPrefix("error: \(text) is not a date"), "\(text)")
        }
        #expect(
            message("x > @0000-01-01T00:00:00Z && x < @9999-12-31T23:59:59.5Z && y == @2026-11-01T12:30:00+02:00")
                .hasPrefix("parsed"))
        // `matches(...)` is the tree `~=` makes, and checks its pattern the same way.
        #expect(message(#"x.matches("(")"#).contains("is not a regular expression"))
        #expect(message(#"x.matches("(")"#).contains("(column 11)"))
    }

    @Test func comparingAPropertyWithAConstantOfAnotherKindIsAnErrorWithTheFix() throws {
        let folder = try TemporaryDirectory()
        let context = ModelContext(
            try ModelContainer(
                for: Errand.self, Household.self,
                configurations: ModelConfiguration(url: folder.url.appendingPathComponent("E"), durability: .none)))
        let store = context.container.store(of: "Errand")
        func message(_ text: String, _ entity: String = "Errand") -> String {
            do {
                _ = try store.parseQuery(text, entity: entity)
                return "parsed"
            } catch { return error.description }
        }
        // A date against text answered 0 without a word.
        #expect(
            message(#"due > "2026-10-01""#).contains(
                "due holds a date (Date), which text such as \"2026-10-01\" never equals or orders against; write the date as @2026-10-01 (column 7)"
            ))
        #expect(message(#"priority >= "2""#).contains("write the number without quotes: 2"))
        #expect(message("title == 3").contains("put text in quotes"))
        #expect(message("done == 1").contains("done holds true or false (Bool)"))
        #expect(message(#""2026-10-01" < due"#).contains("(column 1)"))
        #expect(message("household.errands.any(priority == \"high\")", "Errand").contains("priority holds a number"))
        // What does mix: numbers of either form, nil, a UUID as text, dates against dates.
        for text in [
            "priority > 1.5", "estimate == 2", "note == nil", "due == nil",
            #"id == "0F6C1E2A-3B4D-4E5F-8A9B-0C1D2E3F4A5B""#, "due >= @2026-10-01", #"tags.contains("x")"#,
        ] {
            #expect(message(text) == "parsed", "\(text): \(message(text))")
        }
    }
}

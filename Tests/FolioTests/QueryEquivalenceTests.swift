import FolioTestSupport
import Foundation
import Testing

@testable import FolioCore

/// The query engine answers every translated predicate exactly as the predicate itself
/// does on the models: random predicates, built from Foundation's `PredicateExpressions`
/// the way `#Predicate` builds them, run through both paths and compared.
struct QueryEquivalenceTests {
    typealias Condition = any StandardPredicateExpression<Bool>
    typealias Root = PredicateExpressions.Variable<Errand>

    /// A deterministic generator, so a failure names the seed that reproduces it.
    struct Dice {
        var generator: SplitMix64
        init(state: UInt64) { generator = SplitMix64(seed: state) }
        mutating func roll(_ sides: Int) -> Int { Int(generator.next() % UInt64(sides)) }
        mutating func pick<T>(_ choices: [T]) -> T { choices[roll(choices.count)] }
        mutating func chance(_ percent: Int) -> Bool { roll(100) < percent }
    }

    static let titles = [
        "Buy milk", "buy bread", "Call Ana", "Fix the bike", "Água", "Zebra crossing", "Ana's party", "Tea", "tea set",
        "Évora trip",
    ]
    static let tags = ["home", "work", "urgent", "later", ""]
    static let start = Date(timeIntervalSince1970: 1_790_000_000)

    /// A store with households and errands, saved, then changed without saving: some
    /// edited, some inserted, one deleted, so pending changes are part of every query.
    func populatedContext(seed: UInt64, in folder: TemporaryDirectory) throws -> (ModelContext, [Errand]) {
        let container = try ModelContainer(
            for: Errand.self, Household.self,
            configurations: ModelConfiguration(url: folder.url.appendingPathComponent("Errands"), durability: .none))
        let context = ModelContext(container)
        var dice = Dice(state: seed)
        let households = ["North", "South", "East"].map(Household.init)
        var errands: [Errand] = []
        func make(_ number: Int) -> Errand {
            let errand = Errand(
                title: dice.pick(Self.titles) + " \(number)", code: "E\(number)", priority: dice.roll(7) - 2,
                done: dice.chance(40),
                due: Self.start.addingTimeInterval(Double(dice.roll(60 * 24)) * 3600 + (dice.chance(30) ? 0.25 : 0)),
                estimate: dice.chance(70) ? Double(dice.roll(80)) / 4 : nil,
                note: dice.chance(50) ? dice.pick(["", "call first", "cash"]) : nil,
                tags: (0..<dice.roll(3)).map { _ in dice.pick(Self.tags) })
            if dice.chance(80) { errand.household = dice.pick(households) }
            return errand
        }
        for number in 0..<60 {
            let errand = make(number)
            context.insert(errand)
            errands.append(errand)
        }
        try context.save()
        // Soft-deleted and saved: gone from every query.
        context.delete(errands.removeLast())
        try context.save()
        // Unsaved edits, inserts and a delete.
        for errand in errands.prefix(8) {
            errand.priority += 3
            errand.title = "Edited " + errand.title
            if dice.chance(50) { errand.household = nil }
        }
        for number in 60..<66 {
            let errand = make(number)
            context.insert(errand)
            errands.append(errand)
        }
        context.delete(errands.remove(at: 10))
        return (context, errands)
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func randomPredicatesAnswerTheSameOnDocumentsAsOnModels(seed: UInt64) throws {
        let folder = try TemporaryDirectory()
        let (context, errands) = try populatedContext(seed: seed, in: folder)
        var dice = Dice(state: seed &* 7919)
        for round in 0..<150 {
            let predicate = Predicate<Errand> { root in Self.condition(on: root, depth: 3, dice: &dice) }
            let expected = try errands.filter { try predicate.evaluate($0) }.map(\.id)
            let descriptor = FetchDescriptor(predicate: predicate)
            let explanation = try context.explain(descriptor)
            #expect(explanation.fallback == nil, "seed \(seed) round \(round): \(explanation)")
            let fetched = try context.fetch(descriptor).map(\.id)
            #expect(Set(fetched) == Set(expected), "seed \(seed) round \(round): \(predicate)")
            #expect(fetched.count == expected.count)
            #expect(try context.fetchCount(descriptor) == expected.count)
        }
    }

    /// Comparisons of the document's own attributes with constants, joined by `&&`, are
    /// tested on the stored members directly (`AttributeComparisons`): with the constant
    /// on either side, on optionals that are `nil`, on dates and on text.
    @Test func attributeComparisonsAnswerTheSameOnDocumentsAsOnModels() throws {
        let folder = try TemporaryDirectory()
        let (context, errands) = try populatedContext(seed: 9, in: folder)
        let from = Self.start.addingTimeInterval(20 * 86_400)
        let to = from.addingTimeInterval(10 * 86_400)
        let predicates: [Predicate<Errand>] = [
            #Predicate { 2 < $0.priority },
            #Predicate { 2 >= $0.priority && $0.done == false },
            #Predicate { $0.estimate == nil },
            #Predicate { 5.0 <= $0.estimate ?? 0 },
            #Predicate { $0.due >= from && $0.due < to },
            #Predicate { "Tea" < $0.title && $0.note != nil },
        ]
        for predicate in predicates {
            let expected = try errands.filter { try predicate.evaluate($0) }.map(\.id)
            let fetched = try context.fetch(FetchDescriptor(predicate: predicate)).map(\.id)
            #expect(Set(fetched) == Set(expected), "\(predicate)")
            #expect(fetched.count == expected.count)
        }
    }

    @Test(arguments: [4, 5] as [UInt64])
    func randomSortsAndPagesAnswerTheSameOnDocumentsAsOnModels(seed: UInt64) throws {
        let folder = try TemporaryDirectory()
        let (context, errands) = try populatedContext(seed: seed, in: folder)
        var dice = Dice(state: seed)
        let orders: [SortOrder] = [.forward, .reverse]
        for round in 0..<40 {
            var sort: [SortDescriptor<Errand>] = []
            for _ in 0..<(1 + dice.roll(2)) {
                switch dice.roll(5) {
                case 0: sort.append(SortDescriptor(\.priority, order: dice.pick(orders)))
                case 1: sort.append(SortDescriptor(\.due, order: dice.pick(orders)))
                case 2: sort.append(SortDescriptor(\.estimate, order: dice.pick(orders)))
                case 3: sort.append(SortDescriptor(\.note, order: dice.pick(orders)))
                default:
                    // Linux's Foundation has `.lexical` only (no localized comparators).
                    sort.append(
                        dice.chance(50)
                            ? SortDescriptor(\.title, order: dice.pick(orders))
                            : SortDescriptor(\.title, comparator: .lexical, order: dice.pick(orders)))
                }
            }
            sort.append(SortDescriptor(\.code))  // unique: no ties left to order arbitrarily
            let predicate = Predicate<Errand> { root in Self.condition(on: root, depth: 1, dice: &dice) }
            var descriptor = FetchDescriptor(predicate: predicate, sortBy: sort)
            descriptor.fetchOffset = dice.chance(50) ? dice.roll(5) : nil
            descriptor.fetchLimit = dice.chance(70) ? dice.roll(12) : nil
            let matching = try errands.filter { try predicate.evaluate($0) }.sorted(using: sort)
            let offset = min(descriptor.fetchOffset ?? 0, matching.count)
            let end = descriptor.fetchLimit.map { min(offset + $0, matching.count) } ?? matching.count
            let expected = matching[offset..<end].map(\.code)
            #expect(try context.explain(descriptor).fallback == nil)
            #expect(
                try context.fetch(descriptor).map(\.code) == expected,
                "seed \(seed) round \(round): \(sort.map { "\($0)" })")
        }
    }

    @Test func walkingAnOrderedIndexAnswersTheSameAsSortingEverything() throws {
        let folder = try TemporaryDirectory()
        let (context, _) = try populatedContext(seed: 11, in: folder)
        try context.save()
        var dice = Dice(state: 11)
        let all = try context.fetch(FetchDescriptor<Errand>())
        for round in 0..<40 {
            let order: SortOrder = dice.pick([.forward, .reverse])
            let sort: SortDescriptor<Errand> =
                switch dice.roll(3) {
                case 0: SortDescriptor(\.priority, order: order)
                case 1: SortDescriptor(\.due, order: order)
                default: SortDescriptor(\.estimate, order: order)
                }
            let predicate = Predicate<Errand> { root in Self.condition(on: root, depth: 1, dice: &dice) }
            let limit = 1 + dice.roll(10)
            let offset = dice.roll(4)
            let descriptor = FetchDescriptor(
                predicate: predicate, sortBy: [sort], fetchLimit: limit, fetchOffset: offset)
            let matching = try all.filter { try predicate.evaluate($0) }.sorted(using: [sort])
            let expected = matching.dropFirst(offset).prefix(limit).map(\.code)
            let explanation = try context.explain(descriptor)
            // A query an index narrows is collected through it and sorted; the rest walk the ordered index.
            switch explanation.access {
            case .scan, .days: #expect(explanation.sort?.contains("ordered index") == true)
            case .identity, .index, .relationship: #expect(explanation.sort?.contains("ordered index") == false)
            }
            #expect(try context.fetch(descriptor).map(\.code) == Array(expected), "round \(round): \(sort)")
        }
    }

    @Test func anUntranslatablePredicateRunsOnModelsAndExplainSaysWhy() throws {
        let folder = try TemporaryDirectory()
        let (context, errands) = try populatedContext(seed: 12, in: folder)
        let descriptor = FetchDescriptor<Errand>(predicate: #Predicate { $0.tags.first == "home" })
        let explanation = try context.explain(descriptor)
        #expect(explanation.fallback?.contains("from Array<String> to Optional<String>") == true, "\(explanation)")
        let expected = errands.filter { $0.tags.first == "home" }.map(\.code).sorted()
        #expect(try context.fetch(descriptor).map(\.code).sorted() == expected)
        #expect(try context.fetchCount(descriptor) == expected.count)
    }

    @Test func toManyTestsAnswerTheSameOnDocumentsAsOnModels() throws {
        let folder = try TemporaryDirectory()
        let (context, _) = try populatedContext(seed: 9, in: folder)
        let households = try context.fetch(FetchDescriptor<Household>())
        #expect(households.count == 3)
        let predicates: [Predicate<Household>] = [
            #Predicate { $0.errands.contains { !$0.done } },
            #Predicate { $0.errands.allSatisfy { $0.priority > 0 } },
            #Predicate { $0.errands.filter { $0.done }.count >= 3 },
            #Predicate { $0.errands.isEmpty },
            #Predicate { $0.errands.count > 15 },
            #Predicate { $0.errands.contains { $0.tags.contains("urgent") && $0.estimate ?? 0 > 5 } },
        ]
        for predicate in predicates {
            let expected = try households.filter { try predicate.evaluate($0) }.map(\.name).sorted()
            let descriptor = FetchDescriptor(predicate: predicate)
            #expect(try context.explain(descriptor).fallback == nil)
            #expect(try context.fetch(descriptor).map(\.name).sorted() == expected)
        }
    }

    /// A random condition on an errand, as `#Predicate` would build it.
    static func condition(on root: Root, depth: Int, dice: inout Dice) -> Condition {
        if depth > 0, dice.chance(55) {
            let lhs = condition(on: root, depth: depth - 1, dice: &dice)
            switch dice.roll(3) {
            case 0: return and(lhs, condition(on: root, depth: depth - 1, dice: &dice))
            case 1: return or(lhs, condition(on: root, depth: depth - 1, dice: &dice))
            default: return not(lhs)
            }
        }
        return leaf(on: root, dice: &dice)
    }

    static func and(_ lhs: some StandardPredicateExpression<Bool>, _ rhs: some StandardPredicateExpression<Bool>)
        -> Condition
    {
        PredicateExpressions.Conjunction(lhs: lhs, rhs: rhs)
    }

    static func or(_ lhs: some StandardPredicateExpression<Bool>, _ rhs: some StandardPredicateExpression<Bool>)
        -> Condition
    {
        PredicateExpressions.Disjunction(lhs: lhs, rhs: rhs)
    }

    static func not(_ operand: some StandardPredicateExpression<Bool>) -> Condition {
        PredicateExpressions.Negation(operand)
    }

    static func key<Value>(_ root: Root, _ keyPath: KeyPath<Errand, Value> & Sendable)
        -> PredicateExpressions.KeyPath<Root, Value>
    {
        PredicateExpressions.KeyPath(root: root, keyPath: keyPath)
    }

    static func value<Value>(_ value: Value) -> PredicateExpressions.Value<Value> { PredicateExpressions.Value(value) }

    static let comparisons: [PredicateExpressions.ComparisonOperator] = [
        .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual,
    ]

    /// One comparison or test of a property against a random constant.
    static func leaf(on root: Root, dice: inout Dice) -> Condition {
        let date = start.addingTimeInterval(Double(dice.roll(60 * 24)) * 3600)
        switch dice.roll(16) {
        case 0:
            return PredicateExpressions.Comparison(
                lhs: key(root, \.priority), rhs: value(dice.roll(9) - 3), op: dice.pick(comparisons))
        case 1: return PredicateExpressions.Equal(lhs: key(root, \.priority), rhs: value(dice.roll(9) - 3))
        case 2:
            return PredicateExpressions.Equal(
                lhs: key(root, \.title), rhs: value(dice.pick(titles) + " \(dice.roll(66))"))
        case 3:
            return PredicateExpressions.NotEqual(lhs: key(root, \.note), rhs: PredicateExpressions.NilLiteral<String>())
        case 4:
            return PredicateExpressions.Comparison(
                lhs: PredicateExpressions.NilCoalesce(lhs: key(root, \.estimate), rhs: value(0.0)),
                rhs: value(Double(dice.roll(80)) / 4),
                op: dice.pick(comparisons))
        case 5: return key(root, \.done)
        case 6:
            return PredicateExpressions.Comparison(lhs: key(root, \.due), rhs: value(date), op: dice.pick(comparisons))
        case 7:
            return PredicateExpressions.SequenceContains(sequence: key(root, \.tags), element: value(dice.pick(tags)))
        case 8:
            return PredicateExpressions.CollectionContainsCollection(
                base: key(root, \.title), other: value(dice.pick(["a", "Ana", "tea", "1", "Á"])))
        case 9:
            return PredicateExpressions.SequenceStartsWith(
                base: key(root, \.title), prefix: value(dice.pick(["Buy", "buy", "Edited", "T"])))
        case 10:
            let household = PredicateExpressions.OptionalFlatMap(key(root, \.household)) { household in
                PredicateExpressions.KeyPath(root: household, keyPath: \Household.name)
            }
            return PredicateExpressions.Equal(
                lhs: household, rhs: value(dice.chance(80) ? dice.pick(["North", "South", "East"]) : nil as String?))
        case 11:
            let doubled = PredicateExpressions.Arithmetic(lhs: key(root, \.priority), rhs: value(2), op: .multiply)
            let shifted = PredicateExpressions.Arithmetic(
                lhs: doubled, rhs: value(1), op: dice.pick([.add, .subtract]))
            return PredicateExpressions.Comparison(
                lhs: shifted, rhs: value(dice.roll(12) - 4), op: dice.pick(comparisons))
        case 12:
            let count = PredicateExpressions.KeyPath(root: key(root, \.tags), keyPath: \[String].count)
            return PredicateExpressions.Comparison(lhs: count, rhs: value(dice.roll(3)), op: dice.pick(comparisons))
        case 13:
            return PredicateExpressions.Equal(
                lhs: PredicateExpressions.IntRemainder(lhs: key(root, \.priority), rhs: value(3)),
                rhs: value(dice.roll(3)))
        case 14:
            return PredicateExpressions.Equal(
                lhs: key(root, \.estimate), rhs: value(dice.chance(70) ? Double(dice.roll(80)) / 4 : nil as Double?))
        default:
            let ends = PredicateExpressions.NilCoalesce(lhs: key(root, \.note), rhs: key(root, \.title))
            return PredicateExpressions.Comparison(
                lhs: ends, rhs: value(dice.pick(["M", "c", "Tea", ""])), op: dice.pick(comparisons))
        }
    }
}

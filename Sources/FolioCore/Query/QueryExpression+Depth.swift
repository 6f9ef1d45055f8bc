/// How deep an expression tree is, and the limit on it.
///
/// Everything that walks a tree (evaluation, planning, printing, hashing) recurses once
/// per level, so a tree from untrusted text must be shallow enough for any thread's stack.
/// The limit is checked where trees come in: the text parser, and every query a store runs.
extension QueryExpression {
    /// The deepest tree Folio evaluates: far beyond any query a person writes, and well
    /// within the stack of any thread, in debug builds too.
    public static let maximumDepth = 256

    /// The number of levels from the root to the deepest leaf, counted without recursion
    /// (the tree being measured may be too deep to recurse over).
    public var depth: Int {
        var deepest = 0
        var pending: [(QueryExpression, Int)] = [(self, 1)]
        while let (expression, level) = pending.popLast() {
            deepest = max(deepest, level)
            for child in expression.children { pending.append((child, level + 1)) }
        }
        return deepest
    }

    /// The names of every member the expression reads, at any depth and of any base (a
    /// document's, a related one's): what must be read of documents to evaluate it.
    var memberNames: Set<String> {
        var names: Set<String> = []
        var pending = [self]
        while let expression = pending.popLast() {
            if case .member(_, let name) = expression { names.insert(name) }
            pending += expression.children
        }
        return names
    }

    /// The expressions directly below this one.
    var children: [QueryExpression] {
        switch self {
        case .value, .variable: []
        case .member(let base, _): [base]
        case .not(let operand), .negate(let operand), .count(let operand): [operand]
        case .and(let lhs, let rhs), .or(let lhs, let rhs), .compare(let lhs, _, let rhs),
            .arithmetic(let lhs, _, let rhs),
            .coalesce(let lhs, let rhs), .text(_, let lhs, let rhs), .contains(let lhs, let rhs):
            [lhs, rhs]
        case .conditional(let test, let then, let otherwise): [test, then, otherwise]
        case .any(let base, _, let body), .all(let base, _, let body), .filter(let base, _, let body),
            .unwrap(let base, _, let body):
            [base, body]
        }
    }

    /// Throws when the tree is deeper than `maximumDepth` (it is not printed: printing recurses).
    func checkDepth() throws(FolioError) {
        let depth = depth
        guard depth > Self.maximumDepth else { return }
        throw FolioError(
            .invalidQuery,
            "the query is \(depth) levels deep, more than the \(Self.maximumDepth) Folio evaluates; split it or shorten its chains"
        )
    }

    /// `&&` or `||`: the operators whose chains may be grouped any way without changing
    /// the answer, since they are associative and their operands have no side effects.
    enum Junction {
        case and, or
    }

    /// The operands of a chain of `junction`, left to right, however it was grouped.
    func operands(of junction: Junction) -> [QueryExpression] {
        var operands: [QueryExpression] = []
        var pending = [self]
        while let expression = pending.popLast() {
            switch (junction, expression) {
            case (.and, .and(let lhs, let rhs)), (.or, .or(let lhs, let rhs)): pending += [rhs, lhs]
            default: operands.append(expression)
            }
        }
        return operands
    }

    /// The terms joined by `junction` as a balanced tree (the left half taking the odd
    /// term), with the operands of terms that are themselves such chains spliced in: a
    /// chain of 5,000 terms is 13 levels deep, and the same chain, however it was
    /// parenthesized, gives the same tree, so printing and reading back agree.
    static func joining(_ terms: [QueryExpression], by junction: Junction) -> QueryExpression {
        let operands = terms.flatMap { $0.operands(of: junction) }
        func join(_ slice: ArraySlice<QueryExpression>) -> QueryExpression {
            guard slice.count > 1 else { return slice[slice.startIndex] }
            let middle = slice.startIndex + (slice.count + 1) / 2
            let (lhs, rhs) = (join(slice[..<middle]), join(slice[middle...]))
            return junction == .and ? .and(lhs, rhs) : .or(lhs, rhs)
        }
        return join(operands[...])
    }
}

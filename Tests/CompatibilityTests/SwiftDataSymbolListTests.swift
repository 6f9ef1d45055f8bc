import Foundation
import Testing

/// `docs/swiftdata.md` and Folio's public API kept in step: every symbol the page marks Y or
/// partly is checked by the compiler in `SwiftDataSymbols.swift`, every symbol it marks not
/// is absent from `Sources/`, and the page's counts and test names are its tables'.
struct SwiftDataSymbolListTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let page = repository.appending(path: "docs/swiftdata.md")
    static let symbolFile = repository.appending(path: "Tests/CompatibilityTests/SwiftDataSymbols.swift")

    /// One symbol of the page's tables, with the status its row gives.
    struct Listed {
        var name: String
        var status: String
        var line: Int
    }

    /// One row of the page's tables: its first cell's symbols (or behaviour), status and tests.
    struct Row {
        var cells: [String]
        var line: Int
        var isSymbolRow: Bool
    }

    /// The rows of the page's symbol tables (header `| SwiftData symbol |`) and behaviour tables.
    static func rows(of text: String) -> [Row] {
        var rows: [Row] = []
        var table: Bool?  // in a symbol table (true), a behaviour table (false), or none
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("| SwiftData symbol |") {
                table = true
            } else if line.hasPrefix("| SwiftData behaviour |") {
                table = false
            } else if !line.hasPrefix("|") {
                table = nil
            } else if let kind = table, !line.hasPrefix("| ---") {
                let inner = line.dropFirst(2).dropLast(2)
                rows.append(
                    Row(
                        cells: inner.components(separatedBy: " | ").map { $0.trimmingCharacters(in: .whitespaces) },
                        line: number + 1, isSymbolRow: kind))
            }
        }
        return rows
    }

    /// The spans in backticks of a cell.
    static func codeSpans(_ cell: String) -> [String] {
        cell.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// The status a row's Folio cell starts with: Y, partly or not.
    static func status(_ cell: String) -> String {
        String(cell.drop { $0 == "*" }.prefix { $0.isLetter })
    }

    /// Every symbol of the page's symbol tables.
    static func listed() throws -> [Listed] {
        let text = try String(contentsOf: page, encoding: .utf8)
        return rows(of: text).filter(\.isSymbolRow).flatMap { row in
            codeSpans(row.cells[0]).map { Listed(name: $0, status: status(row.cells[2]), line: row.line) }
        }
    }

    /// The names of the `// symbol:` lines of `SwiftDataSymbols.swift`.
    static func checked() throws -> [String] {
        try String(contentsOf: symbolFile, encoding: .utf8).split(separator: "\n").compactMap { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("// symbol: ") else { return nil }
            return String(trimmed.dropFirst("// symbol: ".count))
        }
    }

    @Test func everyRowHasAStatusAndEverySymbolIsListedOnce() throws {
        let symbols = try Self.listed()
        #expect(symbols.count > 400, "the page's tables were not found: \(symbols.count) symbols")
        for symbol in symbols where !["Y", "partly", "not"].contains(symbol.status) {
            Issue.record("docs/swiftdata.md:\(symbol.line): \(symbol.name) has no status Y, partly or not")
        }
        var seen: [String: Int] = [:]
        for symbol in symbols {
            if let first = seen[symbol.name] {
                Issue.record(
                    "docs/swiftdata.md:\(symbol.line): \(symbol.name) is listed again (first on line \(first))")
            }
            seen[symbol.name] = seen[symbol.name] ?? symbol.line
        }
    }

    @Test func theSymbolsMarkedYOrPartlyAreTheSymbolsTheCompilerChecks() throws {
        let claimed = try Self.listed().filter { $0.status == "Y" || $0.status == "partly" }
        let checked = try Self.checked()
        let checkedNames = Set(checked)
        for symbol in claimed where !checkedNames.contains(symbol.name) {
            Issue.record(
                "docs/swiftdata.md:\(symbol.line): \(symbol.name) is marked \(symbol.status), but SwiftDataSymbols.swift has no `// symbol: \(symbol.name)` check"
            )
        }
        let claimedNames = Set(claimed.map(\.name))
        for name in checked where !claimedNames.contains(name) {
            Issue.record("SwiftDataSymbols.swift checks \(name), which docs/swiftdata.md does not mark Y or partly")
        }
        #expect(checked.count == checkedNames.count, "SwiftDataSymbols.swift names a symbol twice")
    }

    @Test func noSymbolMarkedNotIsDeclaredPublicInSources() throws {
        let sources = try SourceDeclarations(folder: Self.repository.appending(path: "Sources"))
        let missing = try Self.listed().filter { $0.status == "not" }
        for symbol in missing {
            if let place = sources.declaration(of: symbol.name) {
                Issue.record(
                    "docs/swiftdata.md:\(symbol.line): \(symbol.name) is marked not, but \(place) declares it: mark it Y or partly and check it in SwiftDataSymbols.swift"
                )
            }
        }
    }

    @Test func theCountsThePageGivesAreItsTablesCounts() throws {
        let text = try String(contentsOf: Self.page, encoding: .utf8)
        let symbols = try Self.listed()
        let yes = symbols.count { $0.status == "Y" }
        let partly = symbols.count { $0.status == "partly" }
        let not = symbols.count { $0.status == "not" }
        let summary =
            "Of SwiftData's \(symbols.count) symbols, Folio has \(yes) as SwiftData documents them, \(partly) partly and lacks \(not)."
        let total = "| **all** | **\(yes)** | **\(partly)** | **\(not)** |"
        let closing = "Now: \(symbols.count) symbols, \(yes) Y, \(partly) partly, \(not) not."
        for line in [summary, total, closing] where !text.contains(line) {
            Issue.record("docs/swiftdata.md should say, as its tables count: \(line)")
        }
    }

    @Test func everyTestFileARowNamesExistsAndEveryClaimNamesOne() throws {
        let text = try String(contentsOf: Self.page, encoding: .utf8)
        let tests = Self.repository.appending(path: "Tests")
        var files: Set<String> = []
        for case let url as URL in FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil)!
        where url.pathExtension == "swift" {
            files.insert(url.lastPathComponent)
        }
        for row in Self.rows(of: text) {
            let pinned = row.cells.last ?? ""
            let named = Self.codeSpans(pinned).filter { $0.hasSuffix(".swift") }
            for file in named where !files.contains(file) {
                Issue.record("docs/swiftdata.md:\(row.line): no test file \(file) in Tests/")
            }
            let status = Self.status(row.cells[row.isSymbolRow ? 2 : 1])
            if status != "not" && named.isEmpty {
                Issue.record("docs/swiftdata.md:\(row.line): a row marked \(status) names no test file")
            }
        }
    }
}

/// Folio's declarations as `Sources/` spells them, for finding a symbol by SwiftData's name.
final class SourceDeclarations {
    /// Each Swift file's path (relative to the folder) and text.
    var files: [(path: String, text: String)] = []
    /// The bodies found for each type name, as `bodies(of:)` finds them.
    var bodiesByOwner: [String: [(path: String, text: Substring, isProtocol: Bool)]] = [:]
    /// SwiftData's names that Folio declares as aliases, with the type that holds their members.
    static let aliases = ["SwiftDataError": "FolioError"]

    init(folder: URL) throws {
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)!
        for case let url as URL in enumerator where url.pathExtension == "swift" {
            let path = String(url.path.dropFirst(folder.path.count + 1))
            files.append((path, try String(contentsOf: url, encoding: .utf8)))
        }
    }

    /// Where a symbol named as the page names it (`Type.member`, `Type.method(label:)`,
    /// `@Macro`, `#Macro`) is declared public, if it is.
    func declaration(of symbol: String) -> String? {
        if let sigil = symbol.first, sigil == "@" || sigil == "#" {
            let name = symbol.dropFirst().prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            return first(matching: "public\\s+macro\\s+\(name)\\b", in: files.map { ($0.path, $0.text) })
        }
        let parts = Self.components(of: symbol)
        guard parts.count > 1 else {
            let pattern = "\\b(public|open)\\b[^\\n]*\\b(class|struct|enum|protocol|actor|typealias)\\s+\(parts[0])\\b"
            return first(matching: pattern, in: files.map { ($0.path, $0.text) })
        }
        let owner = parts[parts.count - 2]
        let member = parts[parts.count - 1]
        let bodies = self.bodies(of: Self.aliases[owner] ?? owner)
        let name = member.prefix { $0 != "(" }
        let labels = member.contains("(") ? Self.labels(ofSymbol: member) : nil
        for body in bodies {
            let access = body.isProtocol ? "" : "\\b(public|open)\\b[^\\n]*"
            if let labels {
                // Enum cases take their type's access level, so `case` needs no `public`.
                let keyword =
                    name == "init"
                    ? "\(access)\\binit[?!]?"
                    : name == "subscript" ? "\(access)\\bsubscript" : "(\(access)\\bfunc|\\bcase)\\s+`?\(name)`?"
                for match in matches(of: "\(keyword)\\s*(<[^>]*>)?\\(", in: body.text) {
                    let isSubscript = name == "subscript"
                    if Self.labels(ofDeclarationAt: match.upperBound, in: body.text, isSubscript: isSubscript) == labels
                    {
                        return body.path
                    }
                }
            } else {
                let pattern =
                    "(\(access)\\b(var|let|typealias|associatedtype|class|struct|enum)|\\bcase)\\s+`?\(name)`?\\b"
                if !matches(of: pattern, in: body.text).isEmpty { return body.path }
            }
        }
        return nil
    }

    /// The bodies of the declarations and extensions of a type named `owner`.
    func bodies(of owner: String) -> [(path: String, text: Substring, isProtocol: Bool)] {
        if let known = bodiesByOwner[owner] { return known }
        var found: [(path: String, text: Substring, isProtocol: Bool)] = []
        let pattern =
            "\\b(class|struct|enum|protocol|actor|extension)\\s+([A-Za-z_][A-Za-z0-9_.]*\\.)?\(owner)\\b[^{;]{0,300}\\{"
        for file in files {
            for match in matches(of: pattern, in: file.text[...]) {
                var depth = 1
                var end = match.upperBound
                while end < file.text.endIndex, depth > 0 {
                    if file.text[end] == "{" { depth += 1 } else if file.text[end] == "}" { depth -= 1 }
                    end = file.text.index(after: end)
                }
                let isProtocol = file.text[match].contains("protocol")
                found.append((file.path, file.text[match.upperBound..<end], isProtocol))
            }
        }
        bodiesByOwner[owner] = found
        return found
    }

    /// A symbol's names, split at the dots outside its parentheses.
    static func components(of symbol: String) -> [String] {
        var parts: [String] = [""]
        var depth = 0
        for character in symbol {
            if character == "(" { depth += 1 } else if character == ")" { depth -= 1 }
            if character == "." && depth == 0 { parts.append("") } else { parts[parts.count - 1].append(character) }
        }
        return parts
    }

    /// The argument labels a symbol names: `init(for:editingState:)` is `["for", "editingState"]`.
    static func labels(ofSymbol member: String) -> [String] {
        let inner = member.drop { $0 != "(" }.dropFirst().prefix { $0 != ")" }
        return inner.split(separator: ":").map(String.init)
    }

    /// The argument labels of the declaration whose parameter list opens before `start`.
    static func labels(ofDeclarationAt start: String.Index, in text: Substring, isSubscript: Bool) -> [String] {
        var depth = 1
        var index = start
        var parameters: [String] = [""]
        var previous: Character = "("
        while index < text.endIndex {
            let character = text[index]
            if "([<".contains(character) { depth += 1 }
            if ")]".contains(character) || (character == ">" && previous != "-") { depth -= 1 }
            previous = character
            if depth == 0 { break }
            if character == "," && depth == 1 {
                parameters.append("")
            } else {
                parameters[parameters.count - 1].append(character)
            }
            index = text.index(after: index)
        }
        return parameters.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }.map {
            parameter in
            guard let colon = parameter.firstIndex(of: ":") else { return "_" }
            let names = parameter[..<colon].split(whereSeparator: \.isWhitespace).filter { !$0.hasPrefix("@") }
            if names.count >= 2 { return String(names[0]) }
            return isSubscript ? "_" : String(names.first ?? "_")
        }
    }

    /// The file of the first text a pattern matches.
    func first(matching pattern: String, in files: [(String, String)]) -> String? {
        files.first { !matches(of: pattern, in: $0.1[...]).isEmpty }?.0
    }

    /// The ranges a regular expression matches in a text.
    func matches(of pattern: String, in text: Substring) -> [Range<String.Index>] {
        guard let expression = try? NSRegularExpression(pattern: pattern) else {
            Issue.record("not a regular expression: \(pattern)")
            return []
        }
        let string = String(text)
        let found = expression.matches(in: string, range: NSRange(string.startIndex..., in: string))
        return found.compactMap { Range($0.range, in: string) }.map { range in
            let lower = text.index(
                text.startIndex, offsetBy: string.distance(from: string.startIndex, to: range.lowerBound))
            let upper = text.index(lower, offsetBy: string.distance(from: range.lowerBound, to: range.upperBound))
            return lower..<upper
        }
    }
}

/// Reads declarations from a file's tokens in one forward pass. Types' bodies are read as member lists (nested
/// to `maximumNesting`, deeper ones skipped whole); function bodies, accessors and initializer expressions are
/// skipped by bracket matching and kept as token ranges. Every `#if` branch is read and recorded on the
/// declarations inside it. Whatever the tokens, each is visited a bounded number of times.
package struct SwiftDeclarationParser {
    let tokens: [SwiftToken]
    let bracketEnds: SwiftBracketEnds
    var i = 0
    /// Type bodies nested deeper than this are skipped, not read: recursion stays bounded.
    static let maximumNesting = 64

    /// Tokens visited and declarations built, for tests that hold the parse linear.
    private final class StepCount {
        var value = 0
    }
    private let counted = StepCount()
    var steps: Int { counted.value }
    private func step() { counted.value += 1 }

    init(tokens: [SwiftToken], bracketEnds: SwiftBracketEnds) {
        self.tokens = tokens
        self.bracketEnds = bracketEnds
    }

    mutating func parse() -> [SwiftDeclaration] {
        var all: [SwiftDeclaration] = []
        while i < tokens.count {
            all += members(depth: 0, conditions: .none)
        }
        return all
    }

    static let modifierWords: Set<String> = [
        "public", "private", "fileprivate", "internal", "open", "package", "final", "static", "override",
        "required", "convenience", "lazy", "weak", "unowned", "mutating", "nonmutating", "dynamic", "nonisolated",
        "indirect", "optional", "prefix", "postfix", "infix", "distributed", "consuming", "borrowing", "__consuming",
    ]

    private func token(_ k: Int) -> SwiftToken? { k < tokens.count ? tokens[k] : nil }

    private func isOpener(_ t: SwiftToken) -> Bool {
        t.kind == .punctuation && (t.text == "(" || t.text == "[" || t.text == "{")
    }
    private func isCloser(_ t: SwiftToken) -> Bool {
        t.kind == .punctuation && (t.text == ")" || t.text == "]" || t.text == "}")
    }

    /// From an opening bracket: the index after the bracket that closes it (any kind counts), or the end.
    package func skipBalanced(_ start: Int) -> Int {
        step()
        return bracketEnds.end(from: start)
    }

    /// From an opening bracket: the end of its group; for a group nothing closes (code that does not compile), the
    /// end of its line, so that a reader trying a call at every such bracket reads each line once.
    package func groupEnd(_ start: Int) -> Int {
        step()
        guard !bracketEnds.isClosed(start) else { return bracketEnds.end(from: start) }
        var k = start + 1
        while k < tokens.count, !tokens[k].startsLine {
            step()
            k += 1
        }
        return k
    }

    /// From `<`: whether a matching `>` comes before a brace, `;` or line end; `end` is the index after it, or
    /// the token where the search stopped (a caller going on from there reads each token once).
    func skipAngles(_ start: Int) -> (end: Int, closed: Bool) {
        var depth = 0
        var k = start
        while k < tokens.count {
            step()
            let t = tokens[k]
            if k > start, t.startsLine || t.isPunctuation("{") || t.isPunctuation("}") || t.isPunctuation(";") {
                return (k, false)
            }
            if t.isPunctuation("<") {
                depth += 1
            } else if t.isPunctuation(">") {
                depth -= 1
                if depth == 0 { return (k + 1, true) }
            } else if t.isPunctuation("(") || t.isPunctuation("[") {
                k = skipBalanced(k)
                continue
            }
            k += 1
        }
        return (k, false)
    }

    /// A token at a line's start that carries on the expression before it (`.map`, `+ x`, `?? y`).
    static func continues(_ t: SwiftToken) -> Bool {
        guard t.kind == .punctuation else {
            return t.kind == .identifier && (t.text == "as" || t.text == "is")
        }
        return ".+-*/%&|^?:=<>".contains(t.text)
    }

    /// From `k`: the end of an expression or type at bracket depth 0 (exclusive): a line break before a token that
    /// does not carry on, `;`, `,` (when `stopAtComma`), `=` (when `stopAtEquals`), a closing bracket of the
    /// enclosing list, or `{` (when `stopAtBrace`, or when it opens `willSet`/`didSet`).
    func expressionEnd(from start: Int, stopAtComma: Bool, stopAtEquals: Bool, stopAtBrace: Bool) -> Int {
        var k = start
        while k < tokens.count {
            step()
            let t = tokens[k]
            if k > start, t.startsLine, !Self.continues(t) { return k }
            if t.kind == .punctuation {
                switch t.text {
                case ";": return k
                case ",": if stopAtComma { return k }
                case "=":
                    if stopAtEquals, token(k + 1).map({ !$0.isPunctuation("=") }) ?? true,
                        k == start || !(tokens[k - 1].kind == .punctuation && "=!<>".contains(tokens[k - 1].text))
                    {
                        return k
                    }
                case ")", "]", "}": return k
                case "{":
                    if stopAtBrace { return k }
                    if let next = token(k + 1), next.isIdentifier("willSet") || next.isIdentifier("didSet") {
                        return k
                    }
                    k = skipBalanced(k)
                    continue
                case "(", "[":
                    k = skipBalanced(k)
                    continue
                default: break
                }
            }
            k += 1
        }
        return k
    }

    /// Skips a statement this scanner does not read (an enum case, an import, code at file scope).
    mutating func skipStatement() {
        let start = i
        while i < tokens.count {
            step()
            let t = tokens[i]
            if i > start, t.startsLine, !Self.continues(t) { return }
            if t.isPunctuation("}") { return }
            if t.isPunctuation(";") {
                i += 1
                return
            }
            if isOpener(t) {
                i = skipBalanced(i)
            } else {
                i += 1
            }
        }
    }

    /// The rest of a line's tokens as text (an `#if` condition).
    mutating func restOfLine() -> String {
        var parts: [String] = []
        while i < tokens.count, !tokens[i].startsLine {
            step()
            parts.append(tokens[i].text)
            i += 1
        }
        return parts.joined()
    }

    /// A member list up to its closing brace (consumed) or the end of the file.
    mutating func members(depth: Int, conditions: SwiftConditions) -> [SwiftDeclaration] {
        var result: [SwiftDeclaration] = []
        var attributes: [SwiftAttribute] = []
        var modifiers: [String] = []
        // The branches of the `#if` blocks open in this list, innermost last: each one's condition as written and
        // the path of the declarations inside it (its parent's path and its condition, negated after `#else`).
        var branches: [(condition: String, inside: SwiftConditions)] = []
        var current: SwiftConditions { branches.last?.inside ?? conditions }
        func enclosing() -> SwiftConditions { branches.dropLast().last?.inside ?? conditions }
        func reset() {
            attributes = []
            modifiers = []
        }
        while i < tokens.count {
            step()
            let t = tokens[i]
            var declaration: SwiftDeclaration?
            switch t.kind {
            case .punctuation where t.text == "}":
                i += 1
                if depth > 0 { return result }
                reset()
                continue
            case .punctuation where t.text == ";":
                i += 1
                continue
            case .pound:
                i += 1
                switch t.text {
                case "if":
                    let condition = restOfLine()
                    branches.append((condition, current.appending(condition)))
                case "elseif":
                    let condition = restOfLine()
                    if !branches.isEmpty {
                        branches[branches.count - 1] = (condition, enclosing().appending(condition))
                    }
                case "else":
                    // A second `#else` (not Swift) keeps the first one's reading.
                    if let last = branches.last {
                        branches[branches.count - 1].inside = enclosing().appending("!(" + last.condition + ")")
                    }
                case "endif":
                    if !branches.isEmpty { branches.removeLast() }
                default:
                    var macro = SwiftDeclaration(kind: .macro, name: t.text, line: t.line, column: t.column)
                    if let next = token(i), next.isPunctuation("<"), !next.startsLine {
                        let (end, closed) = skipAngles(i)
                        if closed {
                            macro.type = (i + 1)..<(end - 1)
                            i = end
                        }
                    }
                    if let next = token(i), next.isPunctuation("("), !next.startsLine {
                        let end = skipBalanced(i)
                        macro.initializer = (i + 1)..<max(i + 1, end - 1)
                        i = end
                    }
                    if let next = token(i), next.isPunctuation("{"), !next.startsLine {
                        let end = skipBalanced(i)
                        macro.body = (i + 1)..<max(i + 1, end - 1)
                        i = end
                    }
                    declaration = macro
                }
            case .attribute:
                var attribute = SwiftAttribute(name: t.text, arguments: nil, line: t.line)
                i += 1
                if let next = token(i), next.isPunctuation("("), !next.startsLine {
                    let end = skipBalanced(i)
                    attribute.arguments = (i + 1)..<max(i + 1, end - 1)
                    i = end
                }
                attributes.append(attribute)
                continue
            case .identifier:
                if Self.modifierWords.contains(t.text) || (t.text == "class" && isClassModifier(at: i)) {
                    modifiers.append(t.text)
                    i += 1
                    if let next = token(i), next.isPunctuation("("), !next.startsLine {
                        i = skipBalanced(i)
                    }
                    continue
                }
                switch t.text {
                case "class", "struct", "enum", "actor", "protocol", "extension":
                    declaration = typeDeclaration(depth: depth, conditions: current)
                case "typealias":
                    declaration = typeAlias()
                case "var", "let":
                    let properties = property()
                    for var p in properties {
                        p.attributes = attributes
                        p.modifiers = modifiers
                        p.conditions = current
                        result.append(p)
                    }
                    reset()
                    continue
                case "func", "init", "deinit", "subscript":
                    declaration = function()
                default:
                    skipStatement()
                }
            default:
                skipStatement()
            }
            if var d = declaration {
                d.attributes = attributes
                d.modifiers = modifiers
                d.conditions = current
                result.append(d)
            }
            reset()
        }
        return result
    }

    /// `class` before `var`, `func`, `let`, `subscript` or another modifier is a modifier (`class var`).
    func isClassModifier(at k: Int) -> Bool {
        guard let next = token(k + 1), next.kind == .identifier else { return false }
        return ["var", "let", "func", "subscript"].contains(next.text) || Self.modifierWords.contains(next.text)
    }

    /// A dotted name from `k` (`Outer.Inner`, `any X`, `Foo<Bar>` read as `Foo`): the name and the index after it.
    func dottedName(from start: Int) -> (String, Int)? {
        var k = start
        if let t = token(k), t.isIdentifier("any") || t.isIdentifier("some") { k += 1 }
        guard let first = token(k), first.kind == .identifier else { return nil }
        var name = first.text
        k += 1
        while let dot = token(k), dot.isPunctuation("."), let next = token(k + 1), next.kind == .identifier {
            step()
            name += "." + next.text
            k += 2
        }
        if let t = token(k), t.isPunctuation("<") {
            let (end, closed) = skipAngles(k)
            if closed { k = end }
        }
        return (name, k)
    }

    mutating func typeDeclaration(depth: Int, conditions: SwiftConditions) -> SwiftDeclaration? {
        let keyword = tokens[i]
        let kind: SwiftDeclaration.Kind =
            switch keyword.text {
            case "class": .class
            case "struct": .struct
            case "enum": .enum
            case "actor": .actor
            case "protocol": .protocol
            default: .extension
            }
        i += 1
        guard let (name, after) = dottedName(from: i) else {
            skipStatement()
            return nil
        }
        var declaration = SwiftDeclaration(kind: kind, name: name, line: keyword.line, column: keyword.column)
        i = after
        if let colon = token(i), colon.isPunctuation(":") {
            i += 1
            while i < tokens.count {
                step()
                guard let (inherited, next) = dottedName(from: i) else { break }
                declaration.inherited.append(inherited)
                i = next
                if let t = token(i), t.isPunctuation(",") || t.isPunctuation("&") {
                    i += 1
                    continue
                }
                break
            }
        }
        // A `where` clause or anything else before the body.
        while i < tokens.count, !tokens[i].isPunctuation("{"), !tokens[i].isPunctuation("}") {
            step()
            if tokens[i].isPunctuation("(") || tokens[i].isPunctuation("[") {
                i = skipBalanced(i)
            } else {
                i += 1
            }
        }
        guard i < tokens.count, tokens[i].isPunctuation("{") else { return declaration }
        let bodyStart = i + 1
        if depth + 1 < Self.maximumNesting {
            i += 1
            declaration.members = members(depth: depth + 1, conditions: conditions)
        } else {
            i = skipBalanced(i)
        }
        declaration.body = bodyStart..<max(bodyStart, i - 1)
        return declaration
    }

    mutating func typeAlias() -> SwiftDeclaration? {
        let keyword = tokens[i]
        i += 1
        guard let name = token(i), name.kind == .identifier else {
            skipStatement()
            return nil
        }
        var declaration = SwiftDeclaration(
            kind: .typealias, name: name.text, line: keyword.line, column: keyword.column)
        i += 1
        if let t = token(i), t.isPunctuation("<") {
            let (end, closed) = skipAngles(i)
            if closed { i = end }
        }
        if let t = token(i), t.isPunctuation("=") {
            let end = expressionEnd(from: i + 1, stopAtComma: false, stopAtEquals: false, stopAtBrace: true)
            declaration.type = (i + 1)..<max(i + 1, end)
            i = end
        } else {
            skipStatement()
        }
        return declaration
    }

    /// `var`/`let` and each of its bindings (`var a = 1, b: Int`).
    mutating func property() -> [SwiftDeclaration] {
        let keyword = tokens[i]
        let kind: SwiftDeclaration.Kind = keyword.text == "let" ? .let : .var
        i += 1
        var found: [SwiftDeclaration] = []
        while i < tokens.count {
            step()
            guard let name = token(i), name.kind == .identifier else {
                skipStatement()
                return found
            }
            var declaration = SwiftDeclaration(kind: kind, name: name.text, line: name.line, column: name.column)
            i += 1
            if let t = token(i), t.isPunctuation(":") {
                let end = expressionEnd(from: i + 1, stopAtComma: true, stopAtEquals: true, stopAtBrace: true)
                declaration.type = (i + 1)..<max(i + 1, end)
                i = end
            }
            if let t = token(i), t.isPunctuation("=") {
                let end = expressionEnd(from: i + 1, stopAtComma: true, stopAtEquals: false, stopAtBrace: false)
                declaration.initializer = (i + 1)..<max(i + 1, end)
                i = end
            }
            if let t = token(i), t.isPunctuation("{") {
                let end = skipBalanced(i)
                declaration.body = (i + 1)..<max(i + 1, end - 1)
                i = end
            }
            found.append(declaration)
            if let t = token(i), t.isPunctuation(","), !t.startsLine {
                i += 1
                continue
            }
            return found
        }
        return found
    }

    mutating func function() -> SwiftDeclaration? {
        let keyword = tokens[i]
        i += 1
        var name = keyword.text
        if keyword.text == "func", let t = token(i) {
            name = t.text
            i += 1
        }
        var declaration = SwiftDeclaration(
            kind: keyword.text == "func" ? .func : .initializer, name: name, line: keyword.line,
            column: keyword.column)
        // The signature: to the body's brace, or (a requirement without a body) the end of the statement.
        while i < tokens.count {
            step()
            let t = tokens[i]
            if t.isPunctuation("{") {
                let end = skipBalanced(i)
                declaration.body = (i + 1)..<max(i + 1, end - 1)
                i = end
                return declaration
            }
            if t.isPunctuation("}") || t.isPunctuation(";") { return declaration }
            if t.startsLine, !Self.continues(t), !(t.isIdentifier("where") || t.isIdentifier("throws")) {
                return declaration
            }
            if t.isPunctuation("(") || t.isPunctuation("[") {
                i = skipBalanced(i)
            } else if t.isPunctuation("<") {
                // Unclosed: on from where the search stopped, each token read once.
                i = skipAngles(i).end
            } else {
                i += 1
            }
        }
        return declaration
    }
}

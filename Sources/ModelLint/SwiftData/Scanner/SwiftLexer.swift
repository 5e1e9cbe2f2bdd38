/// One token of a Swift file. Comments and whitespace are not tokens; a string literal (with every interpolation
/// inside it) is one token.
package struct SwiftToken: Sendable, Equatable {
    package enum Kind: UInt8, Sendable {
        /// A name or keyword (`class`, `Item`, `` `default` `` without its backticks, `$0`).
        case identifier
        case number
        /// A plain single-line string literal (no escapes, interpolation or `#`): `text` is its value.
        case string
        /// Any other string literal (multi-line, raw, with escapes or interpolations): `text` is empty.
        case otherString
        /// `/…/` or `#/…/#`.
        case regex
        /// `@Name`: `text` is the name.
        case attribute
        /// `#name` (`#if`, `#Unique`, `#Preview`): `text` is the name.
        case pound
        /// One punctuation or operator character.
        case punctuation
    }

    package var kind: Kind
    package var text: String
    /// 1-based line and column of the token's first byte.
    package var line: Int
    package var column: Int
    /// A line break comes before this token: where a statement may end.
    package var startsLine: Bool

    package func isPunctuation(_ c: Character) -> Bool { kind == .punctuation && text.first == c }
    package func isIdentifier(_ name: String) -> Bool { kind == .identifier && text == name }
}

/// Splits Swift source into tokens in one pass over the bytes, never backing up: linear in the file's size,
/// whatever the file holds (unterminated literals and comments end at the end of the file; invalid UTF-8 is read as
/// replacement characters in names).
package enum SwiftLexer {
    package static func tokens(_ bytes: [UInt8]) -> [SwiftToken] {
        var lexer = State(bytes: bytes)
        lexer.run()
        return lexer.tokens
    }

    private struct State {
        let bytes: [UInt8]
        var i = 0
        var line = 1
        var lineStart = 0
        var sawNewline = true
        var tokens: [SwiftToken] = []

        init(bytes: [UInt8]) {
            self.bytes = bytes
            tokens.reserveCapacity(bytes.count / 6)
        }

        func at(_ k: Int) -> UInt8 { k < bytes.count ? bytes[k] : 0 }

        /// Whether a line ends at `k`, as Swift's lexer ends lines: at LF, at CR, and once (at its LF) for CRLF.
        func breaksLine(_ k: Int) -> Bool { bytes[k] == 0x0A || (bytes[k] == 0x0D && at(k + 1) != 0x0A) }

        /// LF or CR: where a one-line construct (a `//` comment, a backtick name, a `/…/` regex) stops.
        static func isLineEnd(_ b: UInt8) -> Bool { b == 0x0A || b == 0x0D }

        /// A backtick with no closing one before this offset (its line's end): later backticks before it have
        /// none either, so the line is not searched again for each.
        var unclosedBacktickUntil = -1

        mutating func newline(at k: Int) {
            line += 1
            lineStart = k + 1
            sawNewline = true
        }

        mutating func emit(_ kind: SwiftToken.Kind, _ text: String, from start: Int, line startLine: Int, col: Int) {
            tokens.append(SwiftToken(kind: kind, text: text, line: startLine, column: col, startsLine: sawNewline))
            sawNewline = false
        }

        static func isIdentifierStart(_ b: UInt8) -> Bool {
            (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || b == 0x5F || b >= 0x80
        }
        static func isIdentifierByte(_ b: UInt8) -> Bool { isIdentifierStart(b) || (b >= 0x30 && b <= 0x39) }

        /// The previous token ends an operand: a `/` after it divides.
        var previousIsOperand: Bool {
            guard let last = tokens.last else { return false }
            switch last.kind {
            case .number, .string, .otherString, .regex: return true
            case .identifier:
                return !["return", "case", "in", "where", "if", "guard", "while", "try", "await", "throw"].contains(
                    last.text)
            case .punctuation: return last.text == ")" || last.text == "]" || last.text == "}"
            default: return false
            }
        }

        mutating func run() {
            while i < bytes.count {
                let b = bytes[i]
                switch b {
                case 0x0A, 0x0D:
                    if breaksLine(i) { newline(at: i) }
                    i += 1
                case 0x20, 0x09, 0x0B, 0x0C, 0x00:
                    i += 1
                case UInt8(ascii: "/") where at(i + 1) == UInt8(ascii: "/"):
                    while i < bytes.count, !Self.isLineEnd(bytes[i]) { i += 1 }
                case UInt8(ascii: "/") where at(i + 1) == UInt8(ascii: "*"):
                    skipBlockComment()
                case UInt8(ascii: "\""):
                    string(pounds: 0, start: i)
                case UInt8(ascii: "#"):
                    pound()
                case UInt8(ascii: "@"):
                    let start = i
                    let col = i - lineStart + 1
                    i += 1
                    if i < bytes.count, Self.isIdentifierStart(bytes[i]) {
                        let nameStart = i
                        while i < bytes.count, Self.isIdentifierByte(bytes[i]) { i += 1 }
                        emit(.attribute, text(nameStart, i), from: start, line: line, col: col)
                    } else {
                        emit(.punctuation, "@", from: start, line: line, col: col)
                    }
                case UInt8(ascii: "`"):
                    let start = i
                    let col = i - lineStart + 1
                    var end = i + 1
                    if i < unclosedBacktickUntil {
                        end = unclosedBacktickUntil
                    } else {
                        while end < bytes.count, bytes[end] != UInt8(ascii: "`"), !Self.isLineEnd(bytes[end]) {
                            end += 1
                        }
                        if end >= bytes.count || bytes[end] != UInt8(ascii: "`") { unclosedBacktickUntil = end }
                    }
                    if end < bytes.count, bytes[end] == UInt8(ascii: "`"), end > i + 1 {
                        emit(.identifier, text(i + 1, end), from: start, line: line, col: col)
                        i = end + 1
                    } else {
                        emit(.punctuation, "`", from: start, line: line, col: col)
                        i += 1
                    }
                case UInt8(ascii: "/") where !previousIsOperand && regexAhead():
                    break
                case UInt8(ascii: "$") where Self.isIdentifierByte(at(i + 1)):
                    identifier()
                case _ where Self.isIdentifierStart(b):
                    identifier()
                case UInt8(ascii: "0")...UInt8(ascii: "9"):
                    number()
                default:
                    let col = i - lineStart + 1
                    emit(.punctuation, String(UnicodeScalar(b)), from: i, line: line, col: col)
                    i += 1
                }
            }
        }

        func text(_ start: Int, _ end: Int) -> String { String(decoding: bytes[start..<end], as: UTF8.self) }

        mutating func identifier() {
            let start = i
            i += 1
            while i < bytes.count, Self.isIdentifierByte(bytes[i]) { i += 1 }
            emit(.identifier, text(start, i), from: start, line: line, col: start - lineStart + 1)
        }

        mutating func number() {
            let start = i
            while i < bytes.count {
                let b = bytes[i]
                if Self.isIdentifierByte(b) {
                    i += 1
                } else if b == UInt8(ascii: "."), at(i + 1) >= UInt8(ascii: "0"), at(i + 1) <= UInt8(ascii: "9") {
                    i += 1
                } else if b == UInt8(ascii: "-") || b == UInt8(ascii: "+"),
                    bytes[i - 1] == UInt8(ascii: "e") || bytes[i - 1] == UInt8(ascii: "E")
                        || bytes[i - 1] == UInt8(ascii: "p") || bytes[i - 1] == UInt8(ascii: "P"),
                    !(bytes[start] == UInt8(ascii: "0") && at(start + 1) == UInt8(ascii: "x")
                        && (bytes[i - 1] == UInt8(ascii: "e") || bytes[i - 1] == UInt8(ascii: "E")))
                {
                    i += 1
                } else {
                    break
                }
            }
            emit(.number, text(start, i), from: start, line: line, col: start - lineStart + 1)
        }

        /// Nested, as Swift's are; an unterminated one runs to the end of the file.
        mutating func skipBlockComment() {
            var depth = 0
            while i < bytes.count {
                if bytes[i] == UInt8(ascii: "/"), at(i + 1) == UInt8(ascii: "*") {
                    depth += 1
                    i += 2
                } else if bytes[i] == UInt8(ascii: "*"), at(i + 1) == UInt8(ascii: "/") {
                    depth -= 1
                    i += 2
                    if depth == 0 { return }
                } else {
                    if breaksLine(i) { newline(at: i) }
                    i += 1
                }
            }
        }

        mutating func pound() {
            let start = i
            let col = i - lineStart + 1
            var k = i
            while k < bytes.count, bytes[k] == UInt8(ascii: "#") { k += 1 }
            if at(k) == UInt8(ascii: "\"") {
                string(pounds: k - i, start: start)
                return
            }
            if at(k) == UInt8(ascii: "/") {
                // `#/…/#`: an extended regex literal, which may span lines; ends at `/` and the same pounds.
                let pounds = k - i
                i = k + 1
                while i < bytes.count {
                    if bytes[i] == UInt8(ascii: "/"), closes(pounds: pounds, after: i + 1) {
                        i += 1 + pounds
                        emit(.regex, "", from: start, line: line, col: col)
                        return
                    }
                    if breaksLine(i) { newline(at: i) }
                    i += 1
                }
                emit(.regex, "", from: start, line: line, col: col)
                return
            }
            if k == i + 1, Self.isIdentifierStart(at(k)) {
                var end = k
                while end < bytes.count, Self.isIdentifierByte(bytes[end]) { end += 1 }
                i = end
                emit(.pound, text(k, end), from: start, line: line, col: col)
                return
            }
            emit(.punctuation, "#", from: start, line: line, col: col)
            i += 1
        }

        func closes(pounds: Int, after k: Int) -> Bool {
            guard pounds > 0 else { return true }
            guard k + pounds <= bytes.count else { return false }
            for j in k..<(k + pounds) where bytes[j] != UInt8(ascii: "#") { return false }
            return true
        }

        /// A bare `/…/` regex literal on one line: read it when a closing `/` follows on the same line and the
        /// literal does not start with a space (which Swift reads as an operator).
        mutating func regexAhead() -> Bool {
            let next = at(i + 1)
            guard next != 0x20, next != 0x09, !Self.isLineEnd(next), next != UInt8(ascii: "="), next != 0 else {
                return false
            }
            var k = i + 1
            while k < bytes.count, k - i < 4096, !Self.isLineEnd(bytes[k]) {
                if bytes[k] == UInt8(ascii: "\\") {
                    k += 2
                    continue
                }
                if bytes[k] == UInt8(ascii: "/") {
                    emit(.regex, "", from: i, line: line, col: i - lineStart + 1)
                    i = k + 1
                    return true
                }
                k += 1
            }
            return false
        }

        /// A string literal from its opening quote (after `pounds` `#`s) to its close, interpolations included,
        /// in one pass with an explicit stack: `\(` opens code that may hold further literals, `)` at depth 0
        /// closes it. A single-line literal ends at its line's end if it is not closed there.
        mutating func string(pounds: Int, start: Int) {
            let startLine = line
            let col = start - lineStart + 1
            enum Frame {
                case literal(pounds: Int, multiline: Bool)
                case code(depth: Int)
            }
            var stack: [Frame] = []
            var plain = true
            func open(at k: Int, pounds: Int) -> (Frame, Int) {
                if at(k) == UInt8(ascii: "\""), at(k + 1) == UInt8(ascii: "\""), at(k + 2) == UInt8(ascii: "\"") {
                    return (.literal(pounds: pounds, multiline: true), k + 3)
                }
                return (.literal(pounds: pounds, multiline: false), k + 1)
            }
            var (first, k) = open(at: i + pounds, pounds: pounds)
            stack.append(first)
            if case .literal(_, true) = first { plain = false }
            if pounds > 0 { plain = false }
            let contentStart = k
            var contentEnd = k
            while k < bytes.count, let top = stack.last {
                let b = bytes[k]
                switch top {
                case .literal(let p, let multiline):
                    if b == UInt8(ascii: "\\"), closes(pounds: p, after: k + 1) {
                        plain = false
                        let after = k + 1 + p
                        if at(after) == UInt8(ascii: "(") {
                            stack.append(.code(depth: 0))
                            k = after + 1
                        } else if at(after) == 0x0D, at(after + 1) == 0x0A {
                            newline(at: after + 1)
                            k = after + 2
                        } else {
                            if after < bytes.count, breaksLine(after) { newline(at: after) }
                            k = after + 1
                        }
                    } else if b == UInt8(ascii: "\"") {
                        let isClose: Bool
                        let width: Int
                        if multiline {
                            isClose =
                                at(k + 1) == UInt8(ascii: "\"") && at(k + 2) == UInt8(ascii: "\"")
                                && closes(pounds: p, after: k + 3)
                            width = 3 + p
                        } else {
                            isClose = closes(pounds: p, after: k + 1)
                            width = 1 + p
                        }
                        if isClose {
                            if stack.count == 1 { contentEnd = k }
                            stack.removeLast()
                            k += width
                        } else {
                            k += 1
                        }
                    } else if Self.isLineEnd(b) {
                        if !multiline {
                            // Unterminated: the literal (and any literal it is nested in) ends at the line's end.
                            plain = false
                            stack.removeAll()
                            contentEnd = k
                        } else {
                            if breaksLine(k) { newline(at: k) }
                            k += 1
                        }
                    } else {
                        k += 1
                    }
                case .code(let depth):
                    if b == UInt8(ascii: "(") {
                        stack[stack.count - 1] = .code(depth: depth + 1)
                        k += 1
                    } else if b == UInt8(ascii: ")") {
                        if depth == 0 { stack.removeLast() } else { stack[stack.count - 1] = .code(depth: depth - 1) }
                        k += 1
                    } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "#") {
                        var q = k
                        while q < bytes.count, bytes[q] == UInt8(ascii: "#") { q += 1 }
                        if at(q) == UInt8(ascii: "\"") {
                            let (frame, next) = open(at: q, pounds: q - k)
                            stack.append(frame)
                            k = next
                        } else {
                            k = q
                        }
                    } else {
                        if breaksLine(k) { newline(at: k) }
                        k += 1
                    }
                }
            }
            if !stack.isEmpty {
                plain = false
                contentEnd = min(k, bytes.count)
            }
            i = min(k, bytes.count)
            let value = plain && contentEnd >= contentStart ? text(contentStart, contentEnd) : ""
            tokens.append(
                SwiftToken(
                    kind: plain ? .string : .otherString, text: value, line: startLine, column: col,
                    startsLine: sawNewline))
            sawNewline = false
        }
    }
}

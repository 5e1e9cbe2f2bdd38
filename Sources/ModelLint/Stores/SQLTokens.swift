/// SQL text split into tokens the way SQLite's tokenizer splits it, as far as a schema statement needs: quoted
/// identifiers (`"…"` and `` `…` `` with doubled quotes inside, `[…]`), string literals (`'…'`), comments
/// (`-- …` and `/* … */`), words and single punctuation characters. An unterminated quote or comment runs to the
/// end of the text, as SQLite would refuse it; nothing here traps.
package struct SQLTokens: RandomAccessCollection {
    package enum Token: Equatable {
        case word(String)
        case quoted(String)
        case string(String)
        case punctuation(Character)
    }

    private let tokens: [Token]

    package init(_ sql: String) {
        var tokens: [Token] = []
        let chars = Array(sql)
        var i = 0
        func quoted(until close: Character, doubling: Bool) -> String {
            var text = ""
            i += 1
            while i < chars.count {
                if chars[i] == close {
                    if doubling, i + 1 < chars.count, chars[i + 1] == close {
                        text.append(close)
                        i += 2
                        continue
                    }
                    i += 1
                    return text
                }
                text.append(chars[i])
                i += 1
            }
            return text
        }
        while i < chars.count {
            let c = chars[i]
            if c.isWhitespace {
                i += 1
            } else if c == "-", i + 1 < chars.count, chars[i + 1] == "-" {
                while i < chars.count, chars[i] != "\n" { i += 1 }
            } else if c == "/", i + 1 < chars.count, chars[i + 1] == "*" {
                i += 2
                while i < chars.count, !(chars[i] == "*" && i + 1 < chars.count && chars[i + 1] == "/") { i += 1 }
                i = Swift.min(i + 2, chars.count)
            } else if c == "\"" || c == "`" {
                tokens.append(.quoted(quoted(until: c, doubling: true)))
            } else if c == "[" {
                tokens.append(.quoted(quoted(until: "]", doubling: false)))
            } else if c == "'" {
                tokens.append(.string(quoted(until: "'", doubling: true)))
            } else if c.isLetter || c.isNumber || c == "_" || c == "$" {
                var word = ""
                while i < chars.count, chars[i].isLetter || chars[i].isNumber || chars[i] == "_" || chars[i] == "$" {
                    word.append(chars[i])
                    i += 1
                }
                tokens.append(.word(word))
            } else {
                tokens.append(.punctuation(c))
                i += 1
            }
        }
        self.tokens = tokens
    }

    package var startIndex: Int { tokens.startIndex }
    package var endIndex: Int { tokens.endIndex }
    package subscript(position: Int) -> Token { tokens[position] }
}

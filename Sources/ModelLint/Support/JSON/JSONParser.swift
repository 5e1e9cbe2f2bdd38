/// A strict reader of JSON and JSON5 (comments, trailing commas, single quotes, unquoted keys, hex, `+`/`.5`
/// numbers, Infinity/NaN) for the files modellint reads: configuration, lock files, baselines. Unlike
/// Foundation's decoder it keeps keys in file order, refuses duplicate keys (compared by their exact bytes,
/// as most JSON tools would otherwise read the last and modellint the first), says where a syntax error is
/// (line and column), and bounds nesting, so hostile input cannot exhaust the stack.
package struct JSONParser {
    package struct Options {
        package var json5 = true
        package var maxDepth = 64
        /// Keys up to this depth (1: the root object's) have their lines recorded in `keyLines`.
        package var keyLineDepth = 0

        package init(json5: Bool = true, maxDepth: Int = 64, keyLineDepth: Int = 0) {
            self.json5 = json5
            self.maxDepth = maxDepth
            self.keyLineDepth = keyLineDepth
        }
    }

    /// Where each object key stands: the key path (keys from the root, arrays as `[i]`) -> 1-based line.
    package typealias KeyLines = [String: Int]

    private let bytes: [UInt8]
    private let options: Options
    private var i = 0
    private var depth = 0
    private var path: [String] = []
    private(set) var keyLines: KeyLines = [:]
    /// Offsets just past each line break, found once when a position is first needed.
    private var lineStarts: [Int]?

    package init(_ bytes: [UInt8], options: Options) {
        self.bytes = bytes
        self.options = options
    }

    package static func keyPath(_ components: [String]) -> String { components.joined(separator: "\u{1F}") }

    package static func parse(_ bytes: [UInt8], options: Options = Options()) throws -> (JSONValue, KeyLines) {
        var parser = JSONParser(bytes, options: options)
        // A UTF-8 byte order mark is allowed before the value.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.i = 3 }
        try parser.skipSpace()
        guard parser.i < bytes.count else { throw parser.error("the file holds no value") }
        let value = try parser.value()
        try parser.skipSpace()
        guard parser.i == bytes.count else { throw parser.error("unexpected text after the value") }
        return (value, parser.keyLines)
    }

    // MARK: - Positions and errors

    private mutating func line(of offset: Int) -> Int {
        if lineStarts == nil { lineStarts = ByteSearch.lineStarts(in: bytes) }
        return ByteSearch.countAtOrBefore(min(offset, bytes.count), in: lineStarts!)
    }

    /// Line and column, for errors (the column costs a scan of the line: never done per key).
    private mutating func position(of offset: Int) -> (line: Int, column: Int) {
        let line = line(of: offset)
        let starts = lineStarts!
        let lineStart = starts[line - 1]
        // Columns count characters, not bytes: continuation bytes are not a column of their own.
        let column = bytes[lineStart..<min(offset, bytes.count)].filter { $0 & 0xC0 != 0x80 }.count + 1
        return (line, column)
    }

    private mutating func error(_ message: String, at offset: Int? = nil) -> JSONParseError {
        let (line, column) = position(of: offset ?? i)
        return JSONParseError(
            message: "not valid JSON: \(message) at line \(line), column \(column)", line: line, column: column)
    }

    // MARK: - Lexing

    private var current: UInt8? { i < bytes.count ? bytes[i] : nil }

    private mutating func skipSpace() throws {
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 {
                i += 1
            } else if options.json5 && b == UInt8(ascii: "/") && i + 1 < bytes.count
                && bytes[i + 1] == UInt8(ascii: "/")
            {
                while i < bytes.count && bytes[i] != 0x0A { i += 1 }
            } else if options.json5 && b == UInt8(ascii: "/") && i + 1 < bytes.count
                && bytes[i + 1] == UInt8(ascii: "*")
            {
                let start = i
                i += 2
                while i + 1 < bytes.count && !(bytes[i] == UInt8(ascii: "*") && bytes[i + 1] == UInt8(ascii: "/")) {
                    i += 1
                }
                guard i + 1 < bytes.count else { throw error("a comment that is never closed", at: start) }
                i += 2
            } else if options.json5 && b == 0xC2 && i + 1 < bytes.count && bytes[i + 1] == 0xA0 {
                i += 2  // no-break space
            } else {
                return
            }
        }
    }

    private mutating func value() throws -> JSONValue {
        guard let b = current else { throw error("the value is missing") }
        switch b {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "'") where options.json5: return .string(try string())
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            if try literal("true") { return .bool(true) }
            if try literal("false") { return .bool(false) }
            if try literal("null") { return .null }
            if options.json5, try literal("NaN") { return .number(.nan) }
            throw error("an unknown word")
        default:
            return .number(try number())
        }
    }

    private mutating func literal(_ word: String) throws -> Bool {
        let w = Array(word.utf8)
        guard i + w.count <= bytes.count, Array(bytes[i..<(i + w.count)]) == w else { return false }
        let end = i + w.count
        if end < bytes.count, Self.isIdentifierByte(bytes[end]) { return false }
        i = end
        return true
    }

    private mutating func enter() throws {
        depth += 1
        if depth > options.maxDepth {
            let (line, column) = position(of: i)
            throw JSONParseError(
                message: "nested more than \(options.maxDepth) levels deep", line: line, column: column)
        }
    }

    private mutating func object() throws -> JSONValue {
        try enter()
        defer { depth -= 1 }
        i += 1
        var pairs: [(String, JSONValue)] = []
        // Keys by their bytes: compared one by one while an object is small, through sets beyond that. An ASCII
        // key goes in a set of strings (for ASCII, equal strings are equal bytes), any other by its bytes.
        var keys: [String] = []
        var seenASCII: Set<String>?
        var seenOther: Set<[UInt8]> = []
        try skipSpace()
        if current == UInt8(ascii: "}") {
            i += 1
            return .object(pairs)
        }
        while true {
            try skipSpace()
            let keyStart = i
            let key: String
            switch current {
            case UInt8(ascii: "\"")?: key = try string()
            case UInt8(ascii: "'")? where options.json5: key = try string()
            case let c? where options.json5 && (Self.isIdentifierByte(c) || c >= 0x80) && !(c >= 0x30 && c <= 0x39):
                key = identifier()
            case nil: throw error("an object that is never closed")
            default: throw error("a key is expected")
            }
            let repeated: Bool
            if seenASCII != nil {
                repeated =
                    key.utf8.allSatisfy { $0 < 0x80 }
                    ? !seenASCII!.insert(key).inserted : !seenOther.insert(Array(key.utf8)).inserted
            } else {
                repeated = keys.contains { $0.utf8.elementsEqual(key.utf8) }
                keys.append(key)
                if keys.count > 16 {
                    seenASCII = []
                    for known in keys {
                        if known.utf8.allSatisfy({ $0 < 0x80 }) {
                            seenASCII!.insert(known)
                        } else {
                            seenOther.insert(Array(known.utf8))
                        }
                    }
                    keys = []
                }
            }
            guard !repeated else {
                throw error(
                    "the key \"\(key)\" appears twice in one object (\(Self.display(path + [key])))", at: keyStart)
            }
            path.append(key)
            if path.count <= options.keyLineDepth { keyLines[Self.keyPath(path)] = line(of: keyStart) }
            try skipSpace()
            guard current == UInt8(ascii: ":") else { throw error("':' is expected after the key \"\(key)\"") }
            i += 1
            try skipSpace()
            pairs.append((key, try value()))
            path.removeLast()
            try skipSpace()
            switch current {
            case UInt8(ascii: ",")?:
                i += 1
                try skipSpace()
                if current == UInt8(ascii: "}") {
                    guard options.json5 else { throw error("a trailing comma") }
                    i += 1
                    return .object(pairs)
                }
            case UInt8(ascii: "}")?:
                i += 1
                return .object(pairs)
            case nil: throw error("an object that is never closed")
            default: throw error("',' or '}' is expected")
            }
        }
    }

    private mutating func array() throws -> JSONValue {
        try enter()
        defer { depth -= 1 }
        i += 1
        var items: [JSONValue] = []
        try skipSpace()
        if current == UInt8(ascii: "]") {
            i += 1
            return .array(items)
        }
        while true {
            try skipSpace()
            // Element positions matter only for keys whose lines are recorded.
            let tracked = path.count < options.keyLineDepth
            if tracked { path.append("[\(items.count)]") }
            items.append(try value())
            if tracked { path.removeLast() }
            try skipSpace()
            switch current {
            case UInt8(ascii: ",")?:
                i += 1
                try skipSpace()
                if current == UInt8(ascii: "]") {
                    guard options.json5 else { throw error("a trailing comma") }
                    i += 1
                    return .array(items)
                }
            case UInt8(ascii: "]")?:
                i += 1
                return .array(items)
            case nil: throw error("an array that is never closed")
            default: throw error("',' or ']' is expected")
            }
        }
    }

    private static func isIdentifierByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == UInt8(ascii: "_")
            || b == UInt8(ascii: "$")
    }

    private mutating func identifier() -> String {
        let start = i
        while i < bytes.count, Self.isIdentifierByte(bytes[i]) || bytes[i] >= 0x80 { i += 1 }
        return String(decoding: bytes[start..<i], as: UTF8.self)
    }

    private mutating func string() throws -> String {
        let quote = bytes[i]
        let start = i
        i += 1
        // Most strings (every key and digest of a lock file) hold no escape: read as the bytes they are, in one
        // piece. Anything else a string may hold, and every error, is the loop's below.
        var end = i
        while end < bytes.count {
            let b = bytes[end]
            if b == quote || b == UInt8(ascii: "\\") || b < 0x20 { break }
            end += 1
        }
        if end < bytes.count, bytes[end] == quote {
            defer { i = end + 1 }
            return String(decoding: bytes[i..<end], as: UTF8.self)
        }
        var out: [UInt8] = Array(bytes[i..<end])
        i = end
        while true {
            guard i < bytes.count else { throw error("a string that is never closed", at: start) }
            let b = bytes[i]
            if b == quote {
                i += 1
                break
            }
            if b == 0x0A || b == 0x0D { throw error("a line break inside a string") }
            if b < 0x20 && !(options.json5 && b == 0x09) { throw error("a control character inside a string") }
            if b != UInt8(ascii: "\\") {
                out.append(b)
                i += 1
                continue
            }
            i += 1
            guard let e = current else { throw error("a string that is never closed", at: start) }
            i += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800...0xDBFF).contains(scalar) {
                    guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                        throw error("an unpaired surrogate escape")
                    }
                    i += 2
                    let low = try hex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw error("an unpaired surrogate escape") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw error("an unpaired surrogate escape")
                }
                out += Array(String(Unicode.Scalar(scalar)!).utf8)
            case UInt8(ascii: "'") where options.json5: out.append(e)
            case 0x0A where options.json5: break  // a line continuation
            case UInt8(ascii: "0") where options.json5: out.append(0)
            case UInt8(ascii: "v") where options.json5: out.append(0x0B)
            default:
                guard options.json5 else { throw error("an unknown escape") }
                out.append(e)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private mutating func hex4() throws -> UInt32 {
        guard i + 4 <= bytes.count else { throw error("a \\u escape needs four hex digits") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard let d = Self.hexDigit(bytes[i]) else { throw error("a \\u escape needs four hex digits") }
            v = v << 4 | d
            i += 1
        }
        return v
    }

    private static func hexDigit(_ b: UInt8) -> UInt32? {
        switch b {
        case 0x30...0x39: return UInt32(b - 0x30)
        case 0x41...0x46: return UInt32(b - 0x41 + 10)
        case 0x61...0x66: return UInt32(b - 0x61 + 10)
        default: return nil
        }
    }

    private mutating func number() throws -> Double {
        let start = i
        var negative = false
        if current == UInt8(ascii: "-") || (options.json5 && current == UInt8(ascii: "+")) {
            negative = current == UInt8(ascii: "-")
            i += 1
        }
        if options.json5 {
            if try literal("Infinity") { return negative ? -.infinity : .infinity }
            if try literal("NaN") { return .nan }
            if current == UInt8(ascii: "0"), i + 1 < bytes.count, bytes[i + 1] | 0x20 == UInt8(ascii: "x") {
                i += 2
                var v: Double = 0
                let digitsStart = i
                while let c = current, let d = Self.hexDigit(c) {
                    v = v * 16 + Double(d)
                    i += 1
                }
                guard i > digitsStart else { throw error("a hex number without digits", at: start) }
                return negative ? -v : v
            }
        }
        let digitsStart = i
        while let c = current, c >= 0x30 && c <= 0x39 { i += 1 }
        let integerDigits = i - digitsStart
        if !options.json5 && integerDigits > 1 && bytes[digitsStart] == 0x30 {
            throw error("a number with a leading zero", at: start)
        }
        var fraction = 0
        if current == UInt8(ascii: ".") {
            i += 1
            let f = i
            while let c = current, c >= 0x30 && c <= 0x39 { i += 1 }
            fraction = i - f
            if fraction == 0 && !options.json5 { throw error("a number ends with '.'", at: start) }
        }
        guard integerDigits > 0 || (options.json5 && fraction > 0) else {
            throw error(i == start ? "a value is expected" : "a number without digits", at: start)
        }
        if let c = current, c | 0x20 == UInt8(ascii: "e") {
            i += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { i += 1 }
            let e = i
            while let c = current, c >= 0x30 && c <= 0x39 { i += 1 }
            guard i > e else { throw error("an exponent without digits", at: start) }
        }
        if let c = current, Self.isIdentifierByte(c) { throw error("a value is expected", at: start) }
        let text = bytes[start] == UInt8(ascii: "+") ? bytes[(start + 1)..<i] : bytes[start..<i]
        guard let value = Double(String(decoding: text, as: UTF8.self)) else {
            throw error("a number that cannot be read", at: start)
        }
        return value
    }

    /// `bundles.X.versions` for messages.
    package static func display(_ components: [String]) -> String {
        var out = ""
        for c in components {
            if c.hasPrefix("[") { out += c } else { out += out.isEmpty ? c : "." + c }
        }
        return out
    }
}

package struct JSONParseError: Error, CustomStringConvertible, Equatable {
    package var message: String
    package var line: Int?
    package var column: Int?
    package var description: String { message }

    package init(message: String, line: Int? = nil, column: Int? = nil) {
        self.message = message
        self.line = line
        self.column = column
    }
}

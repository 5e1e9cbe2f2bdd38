import ModelLintSupport

/// One element's start tag in a `contents` file, with where each of its XML attributes sits, so a repair replaces
/// exactly the bytes it means to and leaves everything else (Xcode's attribute order, quotes, white space, line
/// ends) as written.
package struct StartTag: Sendable, Equatable {
    package struct Field: Sendable, Equatable {
        package var name: String
        package var nameRange: Range<Int>
        /// Unescaped (`&quot;` and the other four entities, numeric references).
        package var value: String
        /// The bytes between the quotes.
        package var valueRange: Range<Int>
    }

    /// From `<` to `>` inclusive.
    package var range: Range<Int>
    package var element: String
    package var fields: [Field]

    package func field(_ name: String) -> Field? { fields.first { $0.name == name } }

    /// The start tag of `<element … name="name" …>` that begins on `line` (1-based), the one nearest `column`
    /// when the line holds several; nil when there is none (the file changed since it was read).
    package static func find(in bytes: [UInt8], element: String, named name: String, line: Int, column: Int?)
        -> StartTag?
    {
        guard line >= 1, let start = lineStart(line, in: bytes) else { return nil }
        var end = start
        while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
        var candidates: [StartTag] = []
        var i = start
        while i < end {
            if bytes[i] == UInt8(ascii: "<"), let tag = parse(bytes, at: i), tag.element == element,
                tag.field("name")?.value == name
            {
                candidates.append(tag)
                i = tag.range.upperBound
            } else {
                i += 1
            }
        }
        let wanted = start + max(0, (column ?? 1) - 1)
        return candidates.min { abs($0.range.lowerBound - wanted) < abs($1.range.lowerBound - wanted) }
    }

    /// The tag whose `<` is at `start`; nil when the bytes there are not a well-formed start tag.
    package static func parse(_ bytes: [UInt8], at start: Int) -> StartTag? {
        guard start < bytes.count, bytes[start] == UInt8(ascii: "<") else { return nil }
        var i = start + 1
        let nameStart = i
        while i < bytes.count, isNameByte(bytes[i]) { i += 1 }
        guard i > nameStart else { return nil }
        let element = String(decoding: bytes[nameStart..<i], as: UTF8.self)
        var fields: [Field] = []
        while true {
            while i < bytes.count, isSpace(bytes[i]) { i += 1 }
            guard i < bytes.count else { return nil }
            if bytes[i] == UInt8(ascii: ">") {
                return StartTag(range: start..<(i + 1), element: element, fields: fields)
            }
            if bytes[i] == UInt8(ascii: "/"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: ">") {
                return StartTag(range: start..<(i + 2), element: element, fields: fields)
            }
            let keyStart = i
            while i < bytes.count, isNameByte(bytes[i]) { i += 1 }
            guard i > keyStart else { return nil }
            let keyEnd = i
            while i < bytes.count, isSpace(bytes[i]) { i += 1 }
            guard i < bytes.count, bytes[i] == UInt8(ascii: "=") else { return nil }
            i += 1
            while i < bytes.count, isSpace(bytes[i]) { i += 1 }
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") else { return nil }
            let quote = bytes[i]
            i += 1
            let valueStart = i
            while i < bytes.count, bytes[i] != quote {
                guard bytes[i] != UInt8(ascii: "<") else { return nil }
                i += 1
            }
            guard i < bytes.count else { return nil }
            fields.append(
                Field(
                    name: String(decoding: bytes[keyStart..<keyEnd], as: UTF8.self), nameRange: keyStart..<keyEnd,
                    value: XMLEscape.unescaped(bytes[valueStart..<i]), valueRange: valueStart..<i))
            i += 1
        }
    }

    private static func lineStart(_ line: Int, in bytes: [UInt8]) -> Int? {
        var current = 1
        var i = 0
        while current < line {
            guard i < bytes.count else { return nil }
            if bytes[i] == 0x0A {
                current += 1
            } else if bytes[i] == 0x0D {
                // CR LF is one line end, a lone CR another.
                if i + 1 < bytes.count, bytes[i + 1] == 0x0A { i += 1 }
                current += 1
            }
            i += 1
        }
        return i <= bytes.count ? i : nil
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    private static func isNameByte(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) || b == 0x5F || b == 0x2D
            || b == 0x2E || b == 0x3A || b >= 0x80
    }
}

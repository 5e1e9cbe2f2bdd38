/// The diagram layout Xcode writes last in a `contents` file (`<elements>`, one `<element>` per entity with its
/// position and size). No rule reads it, yet in an old bundle it is a third of the elements the parser would report,
/// each bridged into strings and a dictionary. A section the parser could only read as known, empty-handed
/// elements of the `<model>` is blanked before parsing; any other is parsed as written.
package enum LayoutSection {
    private static let open = Array("<elements>".utf8)
    private static let close = Array("</elements>".utf8)
    private static let modelClose = Array("</model>".utf8)
    private static let element = Array("<element".utf8)
    private static let attributes = ["name", "positionX", "positionY", "width", "height"].map { Array($0.utf8) }

    /// The bytes of the layout section, when blanking it cannot change what parsing the file gives, else nil.
    /// That holds when the section is the last thing in the root before `</model>` and the end of the file
    /// (so in a well-formed file its parent is the `<model>`, and in a malformed one the parser meets the same first
    /// error at the same place), and it holds only `<element …/>` tags with the vocabulary's attributes, each once,
    /// whose values are printable ASCII without `<` or `&` (so the section is well-formed on its own and names
    /// nothing unknown).
    package static func range(in bytes: [UInt8]) -> Range<Int>? {
        bytes.withUnsafeBufferPointer { text -> Range<Int>? in
            var end = text.count
            while end > 0, isSpace(text[end - 1]) { end -= 1 }
            guard has(modelClose, endingAt: end, in: text) else { return nil }
            end -= modelClose.count
            while end > 0, isSpace(text[end - 1]) { end -= 1 }
            guard has(close, endingAt: end, in: text) else { return nil }
            let contentEnd = end - close.count
            guard let start = lastStart(of: open, before: contentEnd, in: text),
                holdsOnlyLayoutElements(text, from: start + open.count, to: contentEnd)
            else { return nil }
            return start..<end
        }
    }

    /// `bytes` with the layout section turned into spaces (line breaks kept, so every line and column after it stays
    /// where it was), or nil when it may not be blanked (`range(in:)`).
    package static func blanked(_ bytes: [UInt8]) -> [UInt8]? {
        guard let range = range(in: bytes) else { return nil }
        var blanked = bytes
        blanked.withUnsafeMutableBufferPointer { text in
            for i in range where text[i] != 0x0A && text[i] != 0x0D { text[i] = 0x20 }
        }
        return blanked
    }

    private static func holdsOnlyLayoutElements(_ text: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int)
        -> Bool
    {
        var i = start
        func skipSpaces() -> Bool {
            let from = i
            while i < end, isSpace(text[i]) { i += 1 }
            return i > from
        }
        func consume(_ word: [UInt8]) -> Bool {
            guard has(word, startingAt: i, before: end, in: text) else { return false }
            i += word.count
            return true
        }
        /// Which of `attributes` starts at `i`, consumed.
        func attribute() -> Int? {
            guard i < end else { return nil }
            let candidates: ClosedRange<Int>
            switch text[i] {
            case UInt8(ascii: "n"): candidates = 0...0
            case UInt8(ascii: "p"): candidates = 1...2
            case UInt8(ascii: "w"): candidates = 3...3
            case UInt8(ascii: "h"): candidates = 4...4
            default: return nil
            }
            return candidates.first { consume(attributes[$0]) }
        }
        while true {
            _ = skipSpaces()
            if i == end { return true }
            guard consume(element) else { return false }
            var seen: UInt8 = 0
            while true {
                let spaced = skipSpaces()
                if i + 1 < end, text[i] == UInt8(ascii: "/"), text[i + 1] == UInt8(ascii: ">") {
                    i += 2
                    break
                }
                // XML wants a space before each attribute (and one after `<element`, or it is another name).
                guard spaced, let known = attribute(), seen & (1 << known) == 0, i + 1 < end,
                    text[i] == UInt8(ascii: "="), text[i + 1] == UInt8(ascii: "\"") || text[i + 1] == UInt8(ascii: "'")
                else { return false }
                seen |= 1 << known
                let quote = text[i + 1]
                i += 2
                while i < end, text[i] != quote {
                    let byte = text[i]
                    guard byte >= 0x20, byte <= 0x7E, byte != UInt8(ascii: "<"), byte != UInt8(ascii: "&") else {
                        return false
                    }
                    i += 1
                }
                guard i < end else { return false }
                i += 1
            }
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    private static func has(_ word: [UInt8], endingAt end: Int, in text: UnsafeBufferPointer<UInt8>) -> Bool {
        end >= word.count && has(word, startingAt: end - word.count, before: end, in: text)
    }

    private static func has(
        _ word: [UInt8], startingAt start: Int, before end: Int, in text: UnsafeBufferPointer<UInt8>
    )
        -> Bool
    {
        guard start >= 0, end - start >= word.count else { return false }
        for k in word.indices where text[start + k] != word[k] { return false }
        return true
    }

    /// The last `word` that ends at or before `end`. The section's content holds no `<elements>` (it holds only
    /// `<element` tags), so the last one is its start.
    private static func lastStart(of word: [UInt8], before end: Int, in text: UnsafeBufferPointer<UInt8>) -> Int? {
        var start = end - word.count
        while start >= 0 {
            if text[start] == word[0], has(word, startingAt: start, before: end, in: text) { return start }
            start -= 1
        }
        return nil
    }
}

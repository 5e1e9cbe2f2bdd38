#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
import ModelLintSupport

/// The diagram layout Xcode writes last in a `contents` file (`<elements>`, one `<element>` per entity with its
/// position and size). No rule reads it, yet in an old bundle it is a third of the elements the parser would report,
/// each bridged into strings and a dictionary. A section the parser could only read as known, empty-handed
/// elements of the `<model>` is blanked before parsing; any other is parsed as written.
package enum LayoutSection {
    // Static strings: compared from their bytes in place, nothing counted or copied.
    private static let open: StaticString = "<elements>"
    private static let close: StaticString = "</elements>"
    private static let modelClose: StaticString = "</model>"
    private static let element: StaticString = "<element"

    /// The bytes of the layout section, when blanking it cannot change what parsing the file gives, else nil.
    /// That holds in a well-formed file when the section is the last thing before `</model>` and the end of the file
    /// (so its parent is the `<model>`), and it holds only `<element …/>` tags with the vocabulary's attributes, each
    /// once, whose values are printable ASCII without `<` or `&` (so it is well-formed on its own and names nothing
    /// unknown). A file that fails to parse with it blanked is read again as written (`ContentsParser`).
    package static func range(in bytes: [UInt8]) -> Range<Int>? {
        bytes.withUnsafeBufferPointer { text -> Range<Int>? in
            var end = text.count
            while end > 0, XMLVocabulary.isSpace(text[end - 1]) { end -= 1 }
            guard has(modelClose, endingAt: end, in: text) else { return nil }
            end -= modelClose.utf8CodeUnitCount
            while end > 0, XMLVocabulary.isSpace(text[end - 1]) { end -= 1 }
            guard has(close, endingAt: end, in: text) else { return nil }
            let contentEnd = end - close.utf8CodeUnitCount
            guard let start = lastOpening(before: contentEnd, in: text),
                holdsOnlyLayoutElements(text, from: start + open.utf8CodeUnitCount, to: contentEnd)
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
            while i < end, XMLVocabulary.isSpace(text[i]) { i += 1 }
            return i > from
        }
        func consume(_ word: StaticString) -> Bool {
            guard has(word, startingAt: i, before: end, in: text) else { return false }
            i += word.utf8CodeUnitCount
            return true
        }
        /// Which of the vocabulary's attributes (name, positionX, positionY, width, height) starts at `i`, consumed.
        func attribute() -> Int? {
            guard i < end else { return nil }
            switch text[i] {
            case UInt8(ascii: "n"): return consume("name") ? 0 : nil
            case UInt8(ascii: "p"): return consume("positionX") ? 1 : consume("positionY") ? 2 : nil
            case UInt8(ascii: "w"): return consume("width") ? 3 : nil
            case UInt8(ascii: "h"): return consume("height") ? 4 : nil
            default: return nil
            }
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

    private static func has(_ word: StaticString, endingAt end: Int, in text: UnsafeBufferPointer<UInt8>) -> Bool {
        end >= word.utf8CodeUnitCount && has(word, startingAt: end - word.utf8CodeUnitCount, before: end, in: text)
    }

    private static func has(
        _ word: StaticString, startingAt start: Int, before end: Int, in text: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        let count = word.utf8CodeUnitCount
        guard start >= 0, end - start >= count else { return false }
        return memcmp(text.baseAddress! + start, word.utf8Start, count) == 0
    }

    /// The last `<elements>` that ends at or before `end`: the section's content holds no other (it holds only
    /// `<element` tags), so it is the section's start. Read backwards from `<` to `<`.
    private static func lastOpening(before end: Int, in text: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = end - open.utf8CodeUnitCount
        while let at = ByteSearch.lastIndex(of: UInt8(ascii: "<"), in: text, atOrBefore: i) {
            if has(open, startingAt: at, before: end, in: text) { return at }
            i = at - 1
        }
        return nil
    }
}

/// The one sanitiser for what modellint prints to a terminal or a CI log, applied as bytes are written, line by
/// line, whatever wrote them (a reporter, a command's message, an error naming a file): control characters,
/// bidi controls and the two XML noncharacters become visible escapes (`\r`, `\u{1B}`), `##[` (the runner's
/// legacy command syntax, found anywhere in a line) loses its bracket, and a line that would start with `::`
/// once the GitHub runner trims it (it trims every Unicode White_Space character, as .NET's `String.Trim`
/// does: U+3000, U+00A0, U+2000-U+200A and more) has its first colon escaped. Tabs and line feeds pass.
/// Workflow commands modellint means to write (the `github` format) are written with `passing`; its own colour
/// codes (a fixed set of SGR sequences) pass.
package struct LogSafeFilter: Sendable {
    private enum LineState: Sendable {
        /// Only whitespace the runner trims since the line began.
        case leading
        /// Leading whitespace and one `:`, held back until the next character decides.
        case colon
        case body
    }

    private var state = LineState.leading
    /// The last two bytes written on this line (for `##[`).
    private var previous: (UInt8, UInt8) = (0, 0)
    /// The bytes of a multi-byte sequence not yet complete (a write can end inside one).
    private var pending: [UInt8] = []
    /// An escape sequence being read: `ESC [ params m` passes when it is one of modellint's own colours.
    private var escape: [UInt8] = []
    /// The SGR parameters modellint's colours use (bold, dim, normal, the bright-ish foregrounds, reset):
    /// nothing that conceals text or paints it in the background's colour.
    private static let colourParameters: Set<String> = [
        "0", "1", "2", "22", "31", "32", "33", "34", "35", "36", "39", "90",
    ]

    package init() {}

    /// Characters the runner's trim removes (.NET `Char.IsWhiteSpace`), other than the line feed.
    package static func isRunnerWhitespace(_ value: UInt32) -> Bool {
        switch value {
        case 0x09, 0x0B, 0x0C, 0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000:
            return true
        default: return false
        }
    }

    /// Filters `bytes` (UTF-8) into `out`.
    package mutating func filter<Bytes: Sequence>(_ bytes: Bytes, into out: inout [UInt8])
    where Bytes.Element == UInt8 {
        let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            // Most of what is printed: runs of printable ASCII inside a line, and of the spaces and tabs that
            // indent one, appended at once.
            var i = 0
            while i < buffer.count {
                if state == .body, pending.isEmpty, escape.isEmpty {
                    let start = i
                    while i < buffer.count, Self.passesInLine(buffer[i]) { i &+= 1 }
                    if i > start {
                        out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<i]))
                        previous = i - start >= 2 ? (buffer[i &- 2], buffer[i &- 1]) : (previous.1, buffer[start])
                        continue
                    }
                } else if state == .leading, pending.isEmpty, escape.isEmpty {
                    let start = i
                    while i < buffer.count, buffer[i] == 0x20 || buffer[i] == 0x09 { i &+= 1 }
                    if i > start {
                        out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<i]))
                        continue
                    }
                }
                filter(byte: buffer[i], into: &out)
                i &+= 1
            }
        }
        guard done == nil else { return }
        for byte in bytes { filter(byte: byte, into: &out) }
    }

    /// A byte written as it comes inside a line: printable ASCII but `[` (which may end `##[`).
    @inline(__always) private static func passesInLine(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte < 0x7F && byte != 0x5B
    }

    private mutating func filter(byte: UInt8, into out: inout [UInt8]) {
        if state == .body, Self.passesInLine(byte), pending.isEmpty, escape.isEmpty {
            out.append(byte)
            previous = (previous.1, byte)
            return
        }
        if !escape.isEmpty || byte == 0x1B, readEscape(byte, into: &out) { return }
        if byte < 0x80 {
            if !pending.isEmpty { flushInvalid(into: &out) }
            emit(UInt32(byte), CollectionOfOne(byte), into: &out)
            return
        }
        if byte & 0xC0 == 0x80, pending.isEmpty {
            pending = [byte]
            flushInvalid(into: &out)
            return
        }
        if byte & 0xC0 != 0x80, !pending.isEmpty { flushInvalid(into: &out) }
        pending.append(byte)
        let expected = Self.sequenceLength(pending[0])
        guard expected > 1 else {
            flushInvalid(into: &out)
            return
        }
        guard pending.count == expected else { return }
        guard let value = Self.scalar(pending) else {
            flushInvalid(into: &out)
            return
        }
        let sequence = pending
        pending.removeAll(keepingCapacity: true)
        emit(value, sequence, into: &out)
    }

    private static func sequenceLength(_ lead: UInt8) -> Int {
        switch lead {
        case 0xC2...0xDF: return 2
        case 0xE0...0xEF: return 3
        case 0xF0...0xF4: return 4
        default: return 0
        }
    }

    /// Reads `byte` as part of an escape sequence; false when it is not one (the held bytes are then written
    /// escaped and the byte is for the caller).
    private mutating func readEscape(_ byte: UInt8, into out: inout [UInt8]) -> Bool {
        if escape.isEmpty {
            escape = [byte]
            return true
        }
        let isParameter = (byte >= 0x30 && byte <= 0x39) || byte == 0x3B
        if (escape.count == 1 && byte == 0x5B) || (escape.count > 1 && isParameter && escape.count < 24) {
            escape.append(byte)
            return true
        }
        if escape.count > 1, byte == 0x6D {
            let parameters = String(decoding: escape.dropFirst(2), as: UTF8.self).split(
                separator: ";", omittingEmptySubsequences: false)
            if parameters.allSatisfy({ Self.colourParameters.contains(String($0)) }) {
                // A colour is not whitespace: a line that starts with one is no workflow command.
                if state == .colon { out.append(UInt8(ascii: ":")) }
                state = .body
                out += escape + [byte]
                escape.removeAll(keepingCapacity: true)
                previous = (0, 0)
                return true
            }
        }
        abandonEscape(into: &out)
        return false
    }

    private mutating func abandonEscape(into out: inout [UInt8]) {
        let held = escape
        escape.removeAll(keepingCapacity: true)
        for byte in held { emit(UInt32(byte), CollectionOfOne(byte), into: &out) }
    }

    /// The end of the output: a held colon or an unfinished sequence is written as it was.
    package mutating func finish(into out: inout [UInt8]) {
        if !escape.isEmpty { abandonEscape(into: &out) }
        if state == .colon { out.append(UInt8(ascii: ":")) }
        if !pending.isEmpty { out += pending }
        pending.removeAll()
        state = .leading
    }

    private mutating func flushInvalid(into out: inout [UInt8]) {
        // Not UTF-8: passed on as it came (the writer's text was a String, so this only happens at a cut).
        let bytes = pending
        pending.removeAll(keepingCapacity: true)
        for byte in bytes { emit(UInt32(byte) | 0x8000_0000, CollectionOfOne(byte), into: &out) }
    }

    /// One character's bytes (a single byte needs no array: `CollectionOfOne`).
    private mutating func emit<Bytes: Collection<UInt8>>(_ value: UInt32, _ bytes: Bytes, into out: inout [UInt8]) {
        let scalar = value & 0x7FFF_FFFF
        let raw = value & 0x8000_0000 != 0
        if scalar == 0x0A && !raw {
            if state == .colon { out.append(UInt8(ascii: ":")) }
            out.append(0x0A)
            state = .leading
            previous = (0, 0)
            return
        }
        switch state {
        case .leading:
            if !raw, scalar != 0x0D, scalar != 0x0B, scalar != 0x0C, Self.isRunnerWhitespace(scalar) {
                out += bytes
                return
            }
            if scalar == 0x3A && !raw {
                state = .colon
                return
            }
            state = .body
        case .colon:
            state = .body
            if scalar == 0x3A && !raw {
                out += Array("\\u{3A}:".utf8)
                previous = (0x3A, 0x3A)
                return
            }
            out.append(UInt8(ascii: ":"))
            previous = (previous.1, 0x3A)
        case .body:
            break
        }
        if !raw, scalar != 0x09, ReportText.isUnsafe(scalar) {
            switch scalar {
            case 0x0D: out += Array("\\r".utf8)
            default: out += Array("\\u{\(String(scalar, radix: 16, uppercase: true))}".utf8)
            }
            previous = (0, 0)
            return
        }
        if scalar == 0x5B, previous == (0x23, 0x23) {
            out += Array("\\u{5B}".utf8)
            previous = (0, 0)
            return
        }
        out += bytes
        previous = (previous.1, bytes.count == 1 ? bytes.first! : 0)
    }

    /// The scalar a complete UTF-8 sequence encodes; nil while it is incomplete or when it is not one.
    private static func scalar(_ b: [UInt8]) -> UInt32? {
        switch b.count {
        case 2 where b[0] >= 0xC2 && b[0] <= 0xDF && b[1] & 0xC0 == 0x80:
            return UInt32(b[0] & 0x1F) << 6 | UInt32(b[1] & 0x3F)
        case 3 where b[0] >= 0xE0 && b[0] <= 0xEF && b[1] & 0xC0 == 0x80 && b[2] & 0xC0 == 0x80:
            return UInt32(b[0] & 0x0F) << 12 | UInt32(b[1] & 0x3F) << 6 | UInt32(b[2] & 0x3F)
        case 4 where b[0] >= 0xF0 && b[0] <= 0xF4 && b[1] & 0xC0 == 0x80 && b[2] & 0xC0 == 0x80 && b[3] & 0xC0 == 0x80:
            return UInt32(b[0] & 0x07) << 18 | UInt32(b[1] & 0x3F) << 12 | UInt32(b[2] & 0x3F) << 6
                | UInt32(b[3] & 0x3F)
        default:
            return nil
        }
    }
}

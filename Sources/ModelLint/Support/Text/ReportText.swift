import Foundation

/// Text from model files in reports. A model file is untrusted: a name may hold a line break, an escape
/// sequence or a bidi override (to write lines of its own into a CI log, or to make a report read other than
/// it is), or be a megabyte long (to make reports of gigabytes). Every reporter renders names through here.
package enum ReportText {
    /// Names longer than this (in characters) are shortened in messages and fields.
    package static let nameLimit = 128
    /// Characters kept at the start of a shortened name.
    package static let keptCharacters = 64
    /// A whole message longer than this is cut in the middle.
    package static let messageLimit = 4096

    /// `AAAA…(1048576 characters)`: the start of a name too long to print, and how long it is (in Unicode
    /// scalars: counting graphemes of a megabyte name costs more than the rest of a run).
    package static func shortenedName(_ name: String) -> String {
        guard name.utf8.count > nameLimit else { return name }
        // Scalars are the bytes that do not continue a sequence.
        let count = scalarCount(name.utf8)
        guard count > nameLimit else { return name }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: name.unicodeScalars.prefix(keptCharacters))
        return String(kept) + "…(\(count) characters)"
    }

    /// A message with every overlong name in it shortened (a name is a run of bytes between ASCII spaces and
    /// punctuation), then cut in the middle if it is still over `messageLimit` bytes. Works on bytes: messages of
    /// hostile files can be megabytes, and there can be hundreds of them.
    package static func boundedMessage(_ message: String) -> String {
        guard message.utf8.count > nameLimit else { return message }
        let bytes = Array(message.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(min(bytes.count, messageLimit * 2))
        // A plain loop over the buffers: a message of a hostile file can be a megabyte, once per finding.
        separatorBytes.withUnsafeBufferPointer { isSeparator in
            bytes.withUnsafeBufferPointer { bytes in
                var runStart = 0
                func flush(_ end: Int) {
                    if end - runStart > nameLimit {
                        out += shortenedName(String(decoding: bytes[runStart..<end], as: UTF8.self)).utf8
                    } else {
                        out += bytes[runStart..<end]
                    }
                }
                var i = 0
                while i < bytes.count {
                    let byte = bytes[i]
                    if isSeparator[Int(byte)] {
                        flush(i)
                        out.append(byte)
                        runStart = i + 1
                    }
                    i += 1
                }
                flush(bytes.count)
            }
        }
        guard out.count > messageLimit else { return String(decoding: out, as: UTF8.self) }
        // Cut at scalar boundaries: never inside a multi-byte sequence.
        var head = messageLimit / 2
        var tail = out.count - messageLimit / 4
        while head > 0 && out[head] & 0xC0 == 0x80 { head -= 1 }
        while tail < out.count && out[tail] & 0xC0 == 0x80 { tail += 1 }
        let omitted = scalarCount(out[head..<tail])
        return String(decoding: out[..<head], as: UTF8.self) + "…(\(omitted) characters omitted)…"
            + String(decoding: out[tail...], as: UTF8.self)
    }

    /// How many scalars UTF-8 bytes hold: the bytes that do not continue a sequence, counted over contiguous
    /// storage (a loop the compiler vectorizes; iterating a String's view costs some 25 instructions a byte).
    package static func scalarCount<Bytes: Collection>(_ bytes: Bytes) -> Int where Bytes.Element == UInt8 {
        if let count = bytes.withContiguousStorageIfAvailable({ buffer -> Int in
            var n = 0
            for byte in buffer { n &+= (byte & 0xC0 != 0x80) ? 1 : 0 }
            return n
        }) {
            return count
        }
        return Array(bytes).withUnsafeBufferPointer { buffer in buffer.reduce(0) { $0 &+ ($1 & 0xC0 != 0x80 ? 1 : 0) } }
    }

    /// ASCII whitespace and the punctuation around names in messages, by byte value.
    private static let separatorBytes: [Bool] = (0..<256).map { byte in
        byte < 0x80 && (" \t\n\r.,;:'\"()[]{}<>=/".utf8.contains(UInt8(byte)))
    }

    /// Characters that must never reach a report raw: C0 and C1 controls, DEL, bidi embeddings, overrides,
    /// isolates and marks, line and paragraph separators, and the two noncharacters XML cannot carry.
    package static func isUnsafe(_ value: UInt32) -> Bool {
        switch value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        case 0xFFFE, 0xFFFF: return true
        default: return false
        }
    }

    /// The text with every unsafe character written as a visible escape (`\n`, `\r`, `\t`, `\u{1B}`), for
    /// formats that have no escape of their own (text, diff, markdown) or cannot carry the character (XML,
    /// workflow commands). Text with nothing unsafe is returned as it is.
    package static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { isUnsafe($0.value) }) else { return text }
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            guard isUnsafe(scalar.value) else {
                out.unicodeScalars.append(scalar)
                continue
            }
            switch scalar.value {
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            default: out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return out
    }

    /// One line of a text-like report (text, diff, markdown) as it may stand in a CI log: unsafe characters
    /// escaped, and neither of the GitHub Actions runner's command syntaxes in it — `::` at the start of the
    /// line after whitespace (the runner trims all of Unicode's), or the legacy `##[` anywhere — so a name cannot become a
    /// workflow command (`::stop-commands::`, `::add-mask::`) of its own.
    package static func logLine(_ line: String) -> String {
        var out = escaped(line)
        if out.contains("##[") { out = out.replacingOccurrences(of: "##[", with: "##\\u{5B}") }
        // The runner trims every Unicode White_Space character before it looks for `::` (LogSafeFilter).
        let scalars = out.unicodeScalars
        let start = scalars.firstIndex { !LogSafeFilter.isRunnerWhitespace($0.value) } ?? scalars.endIndex
        if scalars[start...].starts(with: "::".unicodeScalars) {
            var view = scalars
            view.replaceSubrange(start..<view.index(after: start), with: "\\u{3A}".unicodeScalars)
            out = String(view)
        }
        return out
    }

    /// Names in running text: "A", "A and B", "A, B and C".
    /// Names as runs of `order`: three or more in a row as `first … last`, the rest listed (`Model … Model 9 and
    /// Model 12`). Names not in `order` are listed as they are.
    /// `or`: the last two joined by "or" (who meets a problem: devices on one version or another).
    package static func ranges(_ names: [String], in order: [String], or: Bool = false) -> String {
        ranges(names, positions: positions(in: order), or: or)
    }

    /// Each name's first position in `order`, for `ranges` called many times over one order.
    package static func positions(in order: [String]) -> [String: Int] {
        var position: [String: Int] = [:]
        for (i, name) in order.enumerated() where position[name] == nil { position[name] = i }
        return position
    }

    package static func ranges(_ names: [String], positions position: [String: Int], or: Bool = false) -> String {
        var parts: [String] = []
        var run: [String] = []
        func flush() {
            if run.count >= 3 { parts.append("\(run.first!) … \(run.last!)") } else { parts += run }
            run = []
        }
        for name in names {
            if let last = run.last, let a = position[last], let b = position[name], b == a + 1 {
                run.append(name)
            } else {
                flush()
                run = [name]
            }
        }
        flush()
        return list(parts, conjunction: or ? "or" : "and")
    }

    package static func list(_ names: [String], conjunction: String = "and") -> String {
        names.count <= 2
            ? names.joined(separator: " \(conjunction) ")
            : names.dropLast().joined(separator: ", ") + " \(conjunction) " + names.last!
    }
}

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// JSON read as it streams from a file, for files too large to hold as a tree: a baseline of a million findings
/// is read in fixed-size pieces and each value is kept only if the caller asks for it, so memory follows what is
/// kept, not the file. The grammar is JSON's, with the JSON5 allowances people add by hand to machine-written
/// files (comments, trailing commas). Nesting is bounded; every error names the line.
package final class JSONStreamReader {
    package struct SyntaxError: Error, CustomStringConvertible, Equatable {
        package var line: Int
        package var message: String
        package var description: String { "line \(line): \(message)" }
    }

    /// Where the reader is. It lives behind a pointer, as do the bytes: a class's mutable stored properties are
    /// checked for exclusive access at run time on every use, which at a million objects cost more than the
    /// parsing itself.
    private struct Cursor {
        var start = 0, end = 0
        var remaining: Int
        var line = 1
    }

    /// Where strings are unescaped: `flatObject`'s fields stay here until the next object.
    private struct Scratch {
        var base: UnsafeMutablePointer<UInt8>
        var count = 0
        var capacity: Int
        /// `flatObject`'s fields: (offset, count) in `base` per slot.
        var spans: [(offset: Int, count: Int)] = []

        mutating func reserve(_ more: Int) {
            guard count + more > capacity else { return }
            let grown = Swift.max(capacity * 2, count + more)
            let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
            moved.update(from: base, count: count)
            base.deallocate()
            base = moved
            capacity = grown
        }

        mutating func append(_ bytes: UnsafePointer<UInt8>, count n: Int) {
            reserve(n)
            (base + count).update(from: bytes, count: n)
            count += n
        }

        mutating func append(_ byte: UInt8) {
            reserve(1)
            base[count] = byte
            count += 1
        }
    }

    private let fd: Int32
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    private let cursor: UnsafeMutablePointer<Cursor>
    private let scratch: UnsafeMutablePointer<Scratch>
    private let maxDepth = 64

    /// Opens `path` (a regular file of at most `limit` bytes, as `FileReader` checks).
    /// The file's size when opened.
    package let fileSize: Int

    package init(path: String, limit: Int, chunkSize: Int = 256 * 1024) throws {
        (fd, fileSize) = try FileReader.openChecked(path, limit: limit)
        buffer = .allocate(capacity: chunkSize)
        cursor = .allocate(capacity: 1)
        cursor.initialize(to: Cursor(remaining: limit))
        scratch = .allocate(capacity: 1)
        scratch.initialize(to: Scratch(base: .allocate(capacity: 1024), capacity: 1024))
    }

    deinit {
        _ = close(fd)
        buffer.deallocate()
        cursor.deinitialize(count: 1)
        cursor.deallocate()
        scratch.pointee.base.deallocate()
        scratch.deinitialize(count: 1)
        scratch.deallocate()
    }

    private var start: Int {
        get { cursor.pointee.start }
        set { cursor.pointee.start = newValue }
    }
    private var end: Int { cursor.pointee.end }
    private var line: Int {
        get { cursor.pointee.line }
        set { cursor.pointee.line = newValue }
    }

    // MARK: - Bytes

    private func refill() throws -> Bool {
        guard cursor.pointee.remaining > 0 else { return false }
        while true {
            let wanted = Swift.min(buffer.count, cursor.pointee.remaining)
            let n = read(fd, buffer.baseAddress!, wanted)
            if n < 0 {
                if errno == EINTR { continue }
                throw FileReader.ReadError.failed(String(cString: strerror(errno)))
            }
            cursor.pointee.remaining -= n
            cursor.pointee.start = 0
            cursor.pointee.end = n
            return n > 0
        }
    }

    @inline(__always) private func peek() throws -> UInt8? {
        if start == end, try !refill() { return nil }
        return buffer[start]
    }

    @inline(__always) private func next() throws -> UInt8? {
        if start == end, try !refill() { return nil }
        let byte = buffer[start]
        start += 1
        if byte == 0x0A { line += 1 }
        return byte
    }

    package func error(_ message: String) -> SyntaxError { SyntaxError(line: line, message: message) }

    /// Skips whitespace and comments; the next byte, not consumed (nil at the end). Most calls find a token at
    /// once: that case is inlined, the loop is not.
    @inline(__always) package func skipSpace() throws -> UInt8? {
        let at = cursor.pointee.start
        if at < cursor.pointee.end {
            let c = buffer[at]
            if c > 0x20 && c != UInt8(ascii: "/") { return c }
            // One space, as after a machine-written colon.
            if c == 0x20 && at + 1 < cursor.pointee.end {
                let d = buffer[at + 1]
                if d > 0x20 && d != UInt8(ascii: "/") {
                    cursor.pointee.start = at + 1
                    return d
                }
            }
        }
        return try skipSpaceSlowly()
    }

    private func skipSpaceSlowly() throws -> UInt8? {
        while true {
            if start == end, try !refill() { return nil }
            // The common case: a run of spaces and line breaks inside the buffer, scanned in one loop.
            var i = start
            var lines = 0
            let stop = end
            var byte: UInt8?
            while i < stop {
                let c = buffer[i]
                if c == 0x0A {
                    lines += 1
                } else if c != 0x20 && c != 0x09 && c != 0x0D {
                    byte = c
                    break
                }
                i += 1
            }
            start = i
            line += lines
            guard let byte else { continue }
            guard byte == UInt8(ascii: "/") else { return byte }
            _ = try next()
            switch try next() {
            case UInt8(ascii: "/"):
                while let c = try next(), c != 0x0A {}
            case UInt8(ascii: "*"):
                var star = false
                while true {
                    guard let c = try next() else { throw error("a comment that never ends") }
                    if star && c == UInt8(ascii: "/") { break }
                    star = c == UInt8(ascii: "*")
                }
            default:
                throw error("a '/' that starts no comment")
            }
        }
    }

    @inline(__always) private func expect(_ byte: UInt8, _ what: String) throws {
        guard try skipSpace() == byte else { throw error("expected \(what)") }
        _ = try next()
    }

    /// Reads a byte-order mark, if the file starts with one.
    package func skipByteOrderMark() throws {
        guard try peek() == 0xEF else { return }
        for expected: UInt8 in [0xEF, 0xBB, 0xBF] where try next() != expected { throw error("not UTF-8 JSON") }
    }

    package func atEnd() throws -> Bool { try skipSpace() == nil }

    // MARK: - Values

    /// The members of an object, each key handed to `member`, which must read (or skip) the value.
    package func object(_ member: (String) throws -> Void) throws {
        try objectWithByteKeys({ key in
            guard let text = String(validating: key, as: UTF8.self) else {
                throw error("a key that is not valid UTF-8")
            }
            try member(text)
        })
    }

    /// The same, with each key as its unescaped bytes (valid only during the call): for objects read by the
    /// million, whose keys are compared, never kept.
    package func objectWithByteKeys(_ member: ([UInt8]) throws -> Void) throws {
        try expect(UInt8(ascii: "{"), "an object")
        if try skipSpace() == UInt8(ascii: "}") {
            _ = try next()
            return
        }
        var key: [UInt8] = []
        key.reserveCapacity(32)
        repeat {
            try memberKey(into: &key)
            try member(key)
        } while try !containerEnds(UInt8(ascii: "}"), "expected ',' or '}' in an object")
    }

    /// A member's key and its colon.
    @inline(__always) private func memberKey(into key: inout [UInt8]) throws {
        guard try skipSpace() == UInt8(ascii: "\"") else { throw error("expected a key") }
        key.removeAll(keepingCapacity: true)
        try stringBytes(into: &key)
        try expect(UInt8(ascii: ":"), "':' after a key")
    }

    /// A member's key, read into the scratch and compared there with `names` (then dropped), and its colon: the
    /// index of the name it is, if any.
    @inline(__always) private func memberKeySlot(names: [[UInt8]]) throws -> Int? {
        guard try skipSpace() == UInt8(ascii: "\"") else { throw error("expected a key") }
        let from = scratch.pointee.count
        try scratchString()
        let count = scratch.pointee.count - from
        let key = UnsafeRawPointer(scratch.pointee.base + from)
        scratch.pointee.count = from
        var slot: Int?
        for (i, name) in names.enumerated() where name.count == count {
            if name.withUnsafeBytes({ memcmp($0.baseAddress!, key, count) == 0 }) {
                slot = i
                break
            }
        }
        try expect(UInt8(ascii: ":"), "':' after a key")
        return slot
    }

    /// After a member or an element: true when `close` ends the container (a trailing comma allowed before it),
    /// false after a comma with more to come.
    @inline(__always) private func containerEnds(_ close: UInt8, _ what: String) throws -> Bool {
        switch try skipSpace() {
        case UInt8(ascii: ",")?:
            _ = try next()
            guard try skipSpace() == close else { return false }
            _ = try next()
            return true
        case close?:
            _ = try next()
            return true
        default:
            throw error(what)
        }
    }

    /// An object read without a call per member: the value of each key found in `names` (compared by bytes) is
    /// read when it is a string, unescaped, for `field(_:)`; every other member is skipped. Returns a mask of the
    /// slots read (bit i: `names[i]`).
    package func flatObject(names: [[UInt8]]) throws -> Int {
        scratch.pointee.count = 0
        if scratch.pointee.spans.count == names.count {
            for slot in names.indices { scratch.pointee.spans[slot] = (0, 0) }
        } else {
            scratch.pointee.spans = Array(repeating: (0, 0), count: names.count)
        }
        var found = 0
        try expect(UInt8(ascii: "{"), "an object")
        if try skipSpace() == UInt8(ascii: "}") {
            _ = try next()
            return 0
        }
        repeat {
            if let slot = try memberKeySlot(names: names), try skipSpace() == UInt8(ascii: "\"") {
                let from = scratch.pointee.count
                try scratchString()
                scratch.pointee.spans[slot] = (from, scratch.pointee.count - from)
                found |= 1 << slot
            } else {
                try skipValue(depth: 1)
            }
        } while try !containerEnds(UInt8(ascii: "}"), "expected ',' or '}' in an object")
        return found
    }

    /// Slot `slot`'s string as the last `flatObject` read it (empty when it read none): valid until the next
    /// call.
    package func field(_ slot: Int) -> UnsafeBufferPointer<UInt8> {
        let span = scratch.pointee.spans[slot]
        return UnsafeBufferPointer(start: scratch.pointee.base + span.offset, count: span.count)
    }

    /// The elements of an array, each read (or skipped) by `element`.
    package func array(_ element: () throws -> Void) throws {
        try expect(UInt8(ascii: "["), "an array")
        if try skipSpace() == UInt8(ascii: "]") {
            _ = try next()
            return
        }
        repeat {
            try element()
        } while try !containerEnds(UInt8(ascii: "]"), "expected ',' or ']' in an array")
    }

    /// The next value when it is a string; nil (with the value skipped) when it is anything else.
    package func stringIfPresent() throws -> String? {
        guard try skipSpace() == UInt8(ascii: "\"") else {
            try skipValue()
            return nil
        }
        return try string()
    }

    /// The next value when it is a number; nil (with the value skipped) when it is anything else.
    package func numberIfPresent() throws -> Double? {
        guard let first = try skipSpace(), first == UInt8(ascii: "-") || (first >= 0x30 && first <= 0x39) else {
            try skipValue()
            return nil
        }
        var text: [UInt8] = []
        while let c = try peek(),
            (c >= 0x30 && c <= 0x39) || c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: ".")
                || c == UInt8(ascii: "e") || c == UInt8(ascii: "E")
        {
            text.append(c)
            _ = try next()
            guard text.count <= 64 else { throw error("a number too long") }
        }
        guard let value = Double(String(decoding: text, as: UTF8.self)) else { throw error("not a number") }
        return value
    }

    /// Whether the next value is a string, which is skipped unread (any other value is skipped too).
    package func skipString() throws -> Bool {
        guard try skipSpace() == UInt8(ascii: "\"") else {
            try skipValue()
            return false
        }
        _ = try next()
        while true {
            if start == end, try !refill() { throw error("a string that never ends") }
            let stop = end
            let i = plainRunEnd(from: start, to: stop)
            start = i
            guard i < stop else { continue }
            let c = buffer[i]
            start += 1
            switch c {
            case UInt8(ascii: "\""): return true
            case UInt8(ascii: "\\"):
                guard let e = try next() else { throw error("a string that never ends") }
                if e == UInt8(ascii: "u") {
                    _ = try hex4()
                } else if !"\"\\/bfnrt".utf8.contains(e) {
                    throw error("an invalid escape in a string")
                }
            default:
                throw error("a control character in a string")
            }
        }
    }

    /// Skips one value of any kind.
    package func skipValue(depth: Int = 0) throws {
        guard depth < maxDepth else { throw error("nested more than \(maxDepth) levels deep") }
        switch try skipSpace() {
        case UInt8(ascii: "{")?: try objectWithByteKeys({ _ in try skipValue(depth: depth + 1) })
        case UInt8(ascii: "[")?: try array { try skipValue(depth: depth + 1) }
        case UInt8(ascii: "\"")?: _ = try skipString()
        case let c? where c == UInt8(ascii: "-") || (c >= 0x30 && c <= 0x39): _ = try numberIfPresent()
        case let c? where c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z"):
            var word: [UInt8] = []
            while let c = try peek(), c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z"), word.count < 6 {
                word.append(c)
                _ = try next()
            }
            guard ["true", "false", "null"].contains(String(decoding: word, as: UTF8.self)) else {
                throw error("unexpected text")
            }
        case nil: throw error("the file ends where a value should be")
        default: throw error("unexpected text")
        }
    }

    /// A string (the opening quote next), with JSON's escapes; invalid UTF-8 is refused.
    private func string() throws -> String {
        var bytes: [UInt8] = []
        try stringBytes(into: &bytes)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw error("a string that is not valid UTF-8")
        }
        return text
    }

    /// The next value's UTF-8 bytes, unescaped and not validated (a digest is taken of them), when it is a
    /// string; false (the value skipped) otherwise.
    package func stringBytesIfPresent(into bytes: inout [UInt8]) throws -> Bool {
        guard try skipSpace() == UInt8(ascii: "\"") else {
            try skipValue()
            return false
        }
        try stringBytes(into: &bytes)
        return true
    }

    /// A string's bytes (the opening quote next), unescaped, appended to `bytes`.
    private func stringBytes(into bytes: inout [UInt8]) throws {
        let from = scratch.pointee.count
        try scratchString()
        bytes += UnsafeBufferPointer(start: scratch.pointee.base + from, count: scratch.pointee.count - from)
        scratch.pointee.count = from
    }

    /// A string's bytes (the opening quote next), unescaped, appended to the scratch; runs without escapes are
    /// copied straight from the buffer.
    private func scratchString() throws {
        _ = try next()
        while true {
            if start == end, try !refill() { throw error("a string that never ends") }
            let stop = end
            let i = plainRunEnd(from: start, to: stop)
            scratch.pointee.append(buffer.baseAddress! + start, count: i - start)
            start = i
            guard i < stop else { continue }
            let c = buffer[i]
            start += 1
            switch c {
            case UInt8(ascii: "\""):
                return
            case UInt8(ascii: "\\"):
                guard let e = try next() else { throw error("a string that never ends") }
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.pointee.append(e)
                case UInt8(ascii: "b"): scratch.pointee.append(0x08)
                case UInt8(ascii: "f"): scratch.pointee.append(0x0C)
                case UInt8(ascii: "n"): scratch.pointee.append(0x0A)
                case UInt8(ascii: "r"): scratch.pointee.append(0x0D)
                case UInt8(ascii: "t"): scratch.pointee.append(0x09)
                case UInt8(ascii: "u"):
                    var unit = try hex4()
                    if (0xD800...0xDBFF).contains(unit) {
                        guard try next() == UInt8(ascii: "\\"), try next() == UInt8(ascii: "u") else {
                            throw error("a lone surrogate in a string")
                        }
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("a lone surrogate in a string") }
                        unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(unit) {
                        throw error("a lone surrogate in a string")
                    }
                    guard let scalar = Unicode.Scalar(unit) else { throw error("an invalid escape in a string") }
                    UTF8.encode(scalar) { scratch.pointee.append($0) }
                default:
                    throw error("an invalid escape in a string")
                }
            default:
                throw error("a control character in a string")
            }
        }
    }

    /// Where the run of bytes a string holds as they are ends: the first quote, backslash or control character
    /// at or after `from`, else `to`. Eight bytes a step (a machine word tested for all three at once), as most
    /// strings are long runs without escapes.
    @inline(__always) private func plainRunEnd(from: Int, to stop: Int) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let base = UnsafeRawPointer(buffer.baseAddress!)
        var i = from
        while i + 8 <= stop {
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            // A byte's high bit set in `found` where it is a quote or a backslash, or below 0x20 (the classic
            // has-zero / has-less tests, exact for the first such byte of the word).
            let found =
                ByteSearch.zeroBytes(word ^ (ones &* 0x22)) | ByteSearch.zeroBytes(word ^ (ones &* 0x5C))
                | (word &- ones &* 0x20) & ~word & highs
            if found != 0 { return i + found.trailingZeroBitCount / 8 }
            i += 8
        }
        while i < stop, buffer[i] != 0x22, buffer[i] != 0x5C, buffer[i] >= 0x20 { i += 1 }
        return i
    }

    private func hex4() throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let c = try next() else { throw error("a string that never ends") }
            let digit: UInt32
            switch c {
            case 0x30...0x39: digit = UInt32(c - 0x30)
            case 0x41...0x46: digit = UInt32(c - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(c - 0x61 + 10)
            default: throw error("an invalid \\u escape")
            }
            value = value << 4 | digit
        }
        return value
    }
}

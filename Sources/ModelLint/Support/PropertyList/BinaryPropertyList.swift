import Foundation

/// A binary property list (`bplist00`), checked whole when it is opened and decoded an object at a time when one
/// is read: containers hold the indices of their members, so a cyclic or deeply nested file costs nothing to
/// read, and `UID`s (the references of an NSKeyedArchiver archive) stay plain numbers on every platform. Every
/// offset, count and reference is checked against the file before anything is read; anything out of bounds is an
/// error naming what was wrong, never a trap. Each distinct object is checked once, so the work is linear in the
/// file's size however its objects are shared; a reader that follows a few paths through a large archive (a
/// mapping model's embedded models hold 50,000 objects) decodes only the objects it visits.
package struct BinaryPropertyList: Sendable {
    package enum Object: Sendable, Equatable {
        case null
        case bool(Bool)
        case integer(Int64)
        case real(Double)
        case date(Double)
        case data([UInt8])
        case string(String)
        case uid(Int)
        case array([Int])
        case set([Int])
        case dictionary(keys: [Int], values: [Int])
    }

    package struct ReadError: Error, Equatable, CustomStringConvertible {
        package var description: String

        package init(description: String) {
            self.description = description
        }
    }

    /// The object table: each slot's object, decoded when it is read (the whole file was checked on opening, so
    /// reading cannot fail).
    package struct Objects: RandomAccessCollection, Sendable {
        fileprivate let bytes: [UInt8]
        /// Where each slot's object starts (checked on opening): 32 bits each, as the object area is checked to
        /// be smaller than 4 GB (an archive holds tens of thousands).
        fileprivate let offsets: [UInt32]
        fileprivate let objectAreaEnd: Int
        fileprivate let refSize: Int
        /// Whether every one-byte (`0x5`) string in the file is ASCII, as writers make them.
        fileprivate let asciiStrings: Bool

        package var startIndex: Int { 0 }
        package var endIndex: Int { offsets.count }

        package subscript(slot: Int) -> Object {
            bytes.withUnsafeBufferPointer { buffer in
                (try? BinaryPropertyList.object(
                    at: Int(offsets[slot]), in: buffer, end: objectAreaEnd, refSize: refSize,
                    count: offsets.count, build: true, fail: { ReadError(description: $0) })) ?? .null
            }
        }

        /// The value slot for `key` in the dictionary at `slot`, found without decoding the dictionary or its keys
        /// (a keyed archive's objects are dictionaries read a key at a time); nil when `slot` is not a dictionary
        /// or has no such key.
        package func value(forKey key: String, inDictionary slot: Int) -> Int? {
            guard slot >= 0, slot < offsets.count else { return nil }
            var key = key
            return key.withUTF8 { key in
                let keyIsASCII = key.allSatisfy { $0 < 0x80 }
                return bytes.withUnsafeBufferPointer { bytes -> Int? in
                    var at = Int(offsets[slot])
                    let marker = bytes[at]
                    guard marker >> 4 == 0xD else { return nil }
                    at += 1
                    let n = BinaryPropertyList.length(Int(marker & 0x0F), in: bytes, at: &at, end: objectAreaEnd)
                    for i in 0..<n {
                        let keySlot = Self.reference(in: bytes, at: at + i * refSize, refSize)
                        if textEquals(keySlot, key, isASCII: keyIsASCII, in: bytes) {
                            return Self.reference(in: bytes, at: at + (n + i) * refSize, refSize)
                        }
                    }
                    return nil
                }
            }
        }

        /// The UID at `slot`, nil when it holds something else: what `self[slot]` gives as `.uid`, read without
        /// decoding an object (a keyed archive's references are all UIDs).
        package func uid(_ slot: Int) -> Int? {
            guard slot >= 0, slot < offsets.count else { return nil }
            let at = Int(offsets[slot])
            let marker = bytes[at]
            guard marker >> 4 == 0x8 else { return nil }
            var value: UInt64 = 0
            for i in (at + 1)...(at + 1 + Int(marker & 0x0F)) { value = value << 8 | UInt64(bytes[i]) }
            return Int(value & 0x7FFF_FFFF)
        }

        /// Whether the object at `slot` is a string equal to `text` (as Swift compares strings).
        package func isString(_ slot: Int, equalTo text: String) -> Bool {
            guard slot >= 0, slot < offsets.count else { return false }
            var text = text
            return text.withUTF8 { text in
                bytes.withUnsafeBufferPointer { textEquals(slot, text, isASCII: text.allSatisfy { $0 < 0x80 }, in: $0) }
            }
        }

        private func textEquals(
            _ slot: Int, _ text: UnsafeBufferPointer<UInt8>, isASCII: Bool, in bytes: UnsafeBufferPointer<UInt8>
        ) -> Bool {
            var at = Int(offsets[slot])
            let marker = bytes[at]
            switch marker >> 4 {
            case 0x5:
                // When every one-byte string in the file is ASCII, ASCII text is equal only to the same bytes;
                // otherwise strings compare as Swift compares them (canonical equivalence: a Kelvin sign is a K).
                guard isASCII && asciiStrings else { break }
                at += 1
                let n = BinaryPropertyList.length(Int(marker & 0x0F), in: bytes, at: &at, end: objectAreaEnd)
                return n == text.count && (n == 0 || memcmp(bytes.baseAddress! + at, text.baseAddress!, n) == 0)
            case 0x6: break
            default: return false
            }
            guard case .string(let s) = self[slot] else { return false }
            return s == String(decoding: text, as: UTF8.self)
        }

        private static func reference(in bytes: UnsafeBufferPointer<UInt8>, at: Int, _ width: Int) -> Int {
            var value = 0
            for i in at..<(at + width) { value = value << 8 | Int(bytes[i]) }
            return value
        }
    }

    package let objects: Objects
    /// For each slot of a table whose slots share objects, the first slot that names the same object; empty
    /// when every slot names an object of its own (the usual table).
    private let firstSlots: [Int]
    package let top: Int

    /// The first slot that names the same object as `slot` (the same offset): a graph walker keys its memo and
    /// its cycle check by this, so an object is visited once however many slots name it.
    package func identity(_ slot: Int) -> Int { firstSlots.isEmpty ? slot : firstSlots[slot] }

    package init(bytes: [UInt8]) throws {
        func fail(_ what: String) -> ReadError { ReadError(description: "not a binary property list: \(what)") }
        guard bytes.count >= 40, bytes.starts(with: Array("bplist00".utf8)) else { throw fail("no bplist00 header") }
        let trailer = bytes.count - 32
        func be(_ at: Int, _ width: Int) -> UInt64 {
            var v: UInt64 = 0
            for i in 0..<width { v = v << 8 | UInt64(bytes[at + i]) }
            return v
        }
        let offsetSize = Int(bytes[trailer + 6])
        let refSize = Int(bytes[trailer + 7])
        let count = be(trailer + 8, 8)
        let topIndex = be(trailer + 16, 8)
        let tableOffset = be(trailer + 24, 8)
        guard (1...8).contains(offsetSize), (1...8).contains(refSize) else { throw fail("bad trailer sizes") }
        guard count > 0, count <= UInt64(trailer), topIndex < count, tableOffset >= 8,
            tableOffset <= UInt64(trailer), count * UInt64(offsetSize) <= UInt64(trailer) - tableOffset
        else {
            throw fail("bad trailer counts")
        }
        guard tableOffset <= UInt64(UInt32.max) else { throw fail("an object area of 4 GB or more") }
        let n = Int(count)
        var ascending = true
        // Read in place, a big-endian integer of `offsetSize` bytes per object (an archive holds tens of thousands).
        let offsets = try [UInt32](unsafeUninitializedCapacity: n) { table, initialized in
            try bytes.withUnsafeBufferPointer { buffer in
                var previous = -1
                var at = Int(tableOffset)
                for index in 0..<n {
                    var offset = 0
                    for k in 0..<offsetSize { offset = offset << 8 | Int(buffer[at &+ k]) }
                    at &+= offsetSize
                    guard offset >= 8, offset < Int(tableOffset) else {
                        throw fail("object \(index) outside the object area")
                    }
                    if previous >= offset { ascending = false }
                    previous = offset
                    table[index] = UInt32(truncatingIfNeeded: offset)
                    initialized = index + 1
                }
            }
        }
        // Slots that share an offset share the object: a table of N slots all naming one big object checks it
        // once, not N times. A writer lays objects out in slot order, so ascending offsets (the usual table) name
        // distinct objects and need no lookup.
        var slotAt: [Int: Int] = [:]
        var firstSlots: [Int] = []
        if !ascending {
            slotAt.reserveCapacity(n)
            firstSlots.reserveCapacity(n)
        }
        var asciiStrings = true
        try bytes.withUnsafeBufferPointer { buffer in
            for (index, offset) in offsets.lazy.map(Int.init).enumerated() {
                if !ascending {
                    if let earlier = slotAt[offset] {
                        firstSlots.append(earlier)
                        continue
                    }
                    slotAt[offset] = index
                    firstSlots.append(index)
                }
                // The quick check passes only objects `object` accepts; anything else is checked again the slow
                // way, for the error that names what is wrong.
                if !Self.passesQuickCheck(at: offset, in: buffer, end: Int(tableOffset), refSize: refSize, count: n) {
                    _ = try Self.object(
                        at: offset, in: buffer, end: Int(tableOffset), refSize: refSize, count: n, build: false,
                        fail: fail)
                }
                if buffer[offset] >> 4 == 0x5 && asciiStrings {
                    var at = offset + 1
                    let length = Self.length(Int(buffer[offset] & 0x0F), in: buffer, at: &at, end: Int(tableOffset))
                    asciiStrings = UnsafeBufferPointer(rebasing: buffer[at..<(at + length)]).allSatisfy { $0 < 0x80 }
                }
            }
        }
        objects = Objects(
            bytes: bytes, offsets: offsets, objectAreaEnd: Int(tableOffset), refSize: refSize,
            asciiStrings: asciiStrings)
        self.firstSlots = firstSlots
        top = Int(topIndex)
    }

    /// How many of the objects at `offsets` pass the quick check but not the full one: none, or the quick check
    /// is wrong (tests run it over damaged files).
    package static func quickCheckMisses(in bytes: [UInt8], offsets: [Int], end: Int, refSize: Int, count: Int)
        -> Int
    {
        bytes.withUnsafeBufferPointer { buffer in
            offsets.filter { start in
                start >= 8 && start < end && end <= buffer.count
                    && passesQuickCheck(at: start, in: buffer, end: end, refSize: refSize, count: count)
                    && (try? object(
                        at: start, in: buffer, end: end, refSize: refSize, count: count, build: false,
                        fail: { ReadError(description: $0) })) == nil
            }.count
        }
    }

    /// A length as `object(at:…)` reads it (the low nibble, or an integer object that follows, at most `end`),
    /// read past; -1 when it cannot be read. The quick check and the readers of a checked file share it.
    fileprivate static func length(_ low: Int, in bytes: UnsafeBufferPointer<UInt8>, at: inout Int, end: Int) -> Int {
        guard low == 0x0F else { return low }
        guard at < end else { return -1 }
        let next = bytes[at]
        guard next >> 4 == 0x1, next & 0x0F <= 3 else { return -1 }
        let width = 1 << Int(next & 0x0F)
        guard at + 1 <= end - width else { return -1 }
        var value: UInt64 = 0
        for i in (at + 1)..<(at + 1 + width) { value = value << 8 | UInt64(bytes[i]) }
        guard value <= UInt64(end) else { return -1 }
        at += 1 + width
        return Int(value)
    }

    /// Whether `object(at:…)` reads the object at `start` (`start` is inside the object area): the same bounds
    /// without building, throwing or describing anything, a few instructions an object where a file has
    /// hundreds of thousands. Never true where `object` would fail.
    private static func passesQuickCheck(
        at start: Int, in bytes: UnsafeBufferPointer<UInt8>, end: Int, refSize: Int, count: Int
    ) -> Bool {
        let marker = bytes[start]
        let low = Int(marker & 0x0F)
        var at = start + 1
        func length(_ at: inout Int) -> Int { Self.length(low, in: bytes, at: &at, end: end) }
        // `n` references from `at`: inside the area and naming slots of the table.
        func references(_ n: Int, from at: Int) -> Bool {
            guard n >= 0, n <= (end - at) / refSize else { return false }
            guard n > 0 else { return true }
            var largest = 0
            switch refSize {
            case 1: for i in at..<(at + n) { largest = max(largest, Int(bytes[i])) }
            case 2:
                for i in stride(from: at, to: at + 2 * n, by: 2) {
                    largest = max(largest, Int(bytes[i]) << 8 | Int(bytes[i + 1]))
                }
            default: return false
            }
            return largest < count
        }
        switch marker >> 4 {
        case 0x0: return low == 0 || low == 8 || low == 9
        case 0x1: return low <= 4 && at <= end - (1 << low)
        case 0x2, 0x3: return (low == 2 || low == 3) && at <= end - (1 << low)
        case 0x4, 0x5:
            let n = length(&at)
            return n >= 0 && at <= end - n
        case 0x6:
            let units = length(&at)
            return units >= 0 && units <= (end - at) / 2
        case 0x8: return at <= end - (low + 1)
        case 0xA, 0xC: return references(length(&at), from: at)
        case 0xD:
            let n = length(&at)
            return n >= 0 && n <= (end - at) / (2 * refSize) && references(n, from: at)
                && references(n, from: at + n * refSize)
        default: return false
        }
    }

    /// The object at `start`, every bound checked; `build` false checks without building (the result is then a
    /// placeholder of the right kind).
    fileprivate static func object(
        at start: Int, in bytes: UnsafeBufferPointer<UInt8>, end: Int, refSize: Int, count: Int, build: Bool,
        fail: (String) -> ReadError
    ) throws -> Object {
        // A cursor of its own, its reads its methods (not closures capturing a variable, whose every access
        // is checked for exclusivity at run time).
        struct Cursor {
            let bytes: UnsafeBufferPointer<UInt8>
            let start: Int
            let end: Int
            let refSize: Int
            let count: Int
            var at: Int

            // The next `width` bytes' position, past which reading moves on; an error when they pass the object area.
            mutating func take(_ width: Int, _ fail: (String) -> ReadError) throws -> Int {
                guard width >= 0, at <= end - width else { throw fail("object at \(start) runs past the object area") }
                defer { at += width }
                return at
            }

            // A big-endian unsigned integer of `width` bytes at `from`, keeping the low 64 bits.
            func integer(at from: Int, _ width: Int) -> UInt64 {
                var value: UInt64 = 0
                for i in from..<(from + width) { value = value << 8 | UInt64(bytes[i]) }
                return value
            }

            // A length: the low nibble, or (0xF) an integer object that follows.
            mutating func length(_ low: Int, _ fail: (String) -> ReadError) throws -> Int {
                guard low == 0x0F else { return low }
                let next = bytes[try take(1, fail)]
                guard next >> 4 == 0x1, next & 0x0F <= 3 else { throw fail("bad length at \(start)") }
                let width = 1 << Int(next & 0x0F)
                let value = integer(at: try take(width, fail), width)
                guard value <= UInt64(end) else { throw fail("length past the file at \(start)") }
                return Int(value)
            }

            mutating func references(_ n: Int, build: Bool, _ fail: (String) -> ReadError) throws -> [Int] {
                guard n <= (end - at) / refSize else { throw fail("container at \(start) runs past the object area") }
                let from = at
                at += n * refSize
                var refs: [Int] = []
                if build { refs.reserveCapacity(n) }
                for i in 0..<n {
                    let ref = integer(at: from + i * refSize, refSize)
                    guard ref < UInt64(count) else { throw fail("reference out of range at \(start)") }
                    if build { refs.append(Int(ref)) }
                }
                return refs
            }
        }
        var cursor = Cursor(bytes: bytes, start: start, end: end, refSize: refSize, count: count, at: start)
        let marker = bytes[try cursor.take(1, fail)]
        let kind = marker >> 4
        let low = Int(marker & 0x0F)
        switch kind {
        case 0x0:
            switch low {
            case 0x0: return .null
            case 0x8: return .bool(false)
            case 0x9: return .bool(true)
            default: throw fail("unknown marker \(marker) at \(start)")
            }
        case 0x1:
            guard low <= 4 else { throw fail("integer too wide at \(start)") }
            let width = 1 << low
            let from = try cursor.take(width, fail)
            // 16-byte integers keep their low 64 bits; 8-byte ones are signed.
            return .integer(Int64(bitPattern: cursor.integer(at: from + max(0, width - 8), min(width, 8))))
        case 0x2, 0x3:
            guard low == 2 || low == 3 else { throw fail("bad real at \(start)") }
            let width = 1 << low
            let bits = cursor.integer(at: try cursor.take(width, fail), width)
            let value = low == 2 ? Double(Float(bitPattern: UInt32(bits))) : Double(bitPattern: bits)
            return kind == 0x2 ? .real(value) : .date(value)
        case 0x4:
            let n = try cursor.length(low, fail)
            let from = try cursor.take(n, fail)
            return build ? .data(Array(bytes[from..<(from + n)])) : .null
        case 0x5:
            let n = try cursor.length(low, fail)
            let from = try cursor.take(n, fail)
            guard build else { return .null }
            return .string(String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<(from + n)]), as: UTF8.self))
        case 0x6:
            let units = try cursor.length(low, fail)
            guard units <= (end - cursor.at) / 2 else { throw fail("string past the object area at \(start)") }
            let from = try cursor.take(units * 2, fail)
            guard build else { return .null }
            let utf16 = (0..<units).map { UInt16(bytes[from + 2 * $0]) << 8 | UInt16(bytes[from + 2 * $0 + 1]) }
            return .string(String(decoding: utf16, as: UTF16.self))
        case 0x8:
            return .uid(Int(cursor.integer(at: try cursor.take(low + 1, fail), low + 1) & 0x7FFF_FFFF))
        case 0xA:
            return .array(try cursor.references(try cursor.length(low, fail), build: build, fail))
        case 0xC:
            return .set(try cursor.references(try cursor.length(low, fail), build: build, fail))
        case 0xD:
            let n = try cursor.length(low, fail)
            guard n <= (end - cursor.at) / (2 * refSize) else {
                throw fail("dictionary at \(start) runs past the object area")
            }
            return .dictionary(
                keys: try cursor.references(n, build: build, fail), values: try cursor.references(n, build: build, fail)
            )
        default:
            throw fail("unknown marker \(marker) at \(start)")
        }
    }
}

import Foundation

/// Names (entity names, renaming identifiers, property names) to the value recorded with their first occurrence,
/// found as a `[String: Int]` finds them: by `String` equality, canonically equivalent spellings one key. A model's
/// names are ASCII, and every version looks its names up thousands of times: an ASCII name is hashed here in a few
/// instructions a byte and compared by its bytes, where `String` hashing costs a few hundred instructions a lookup.
/// Once a key is not ASCII, a `Dictionary` of every key decides, so equality is always `String`'s.
package struct NameIndex: Sendable {
    /// The keys in the order first recorded; `values` holds each one's value at the same position.
    package private(set) var keys: [String] = []
    package private(set) var values: [Int] = []
    private var hashes: [UInt64] = []
    /// Open addressing: a key's position + 1, or 0 for an empty slot. At most half full.
    private var slots: [Int32] = []
    /// Every key, once one is not ASCII.
    private var general: [String: Int]?

    package init(capacity: Int = 0) {
        keys.reserveCapacity(capacity)
        values.reserveCapacity(capacity)
        hashes.reserveCapacity(capacity)
        slots = [Int32](repeating: 0, count: Self.slotCount(for: capacity))
    }

    package var count: Int { keys.count }

    package subscript(key: String) -> Int? {
        if let general { return general[key] }
        guard let hash = Self.asciiHash(key) else {
            // Not ASCII, and every key is: equal to one only when its canonical composition (what `String` equality
            // compares) is that key, as the Kelvin sign's is K. Looked up by it, never compared with every key.
            let composed = key.precomposedStringWithCanonicalMapping
            guard let composedHash = Self.asciiHash(composed), let i = position(of: composed, hash: composedHash)
            else { return nil }
            return keys[i] == key ? values[i] : nil
        }
        return position(of: key, hash: hash).map { values[$0] }
    }

    /// The value recorded for `key`, recording `value` for it first if there is none.
    @discardableResult
    package mutating func first(_ key: String, else value: Int) -> Int {
        if general != nil { return recordGeneral(key, value) }
        guard let hash = Self.asciiHash(key) else {
            general = Dictionary(zip(keys, values), uniquingKeysWith: { first, _ in first })
            return recordGeneral(key, value)
        }
        if let i = position(of: key, hash: hash) { return values[i] }
        if (keys.count + 1) * 2 > slots.count { grow() }
        keys.append(key)
        values.append(value)
        hashes.append(hash)
        place(keys.count - 1)
        return value
    }

    private mutating func recordGeneral(_ key: String, _ value: Int) -> Int {
        if let known = general![key] { return known }
        general![key] = value
        keys.append(key)
        values.append(value)
        return value
    }

    private func position(of key: String, hash: UInt64) -> Int? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let entry = Int(slots[slot])
            if entry == 0 { return nil }
            if hashes[entry - 1] == hash, keys[entry - 1] == key { return entry - 1 }
            slot = (slot + 1) & mask
        }
    }

    private mutating func place(_ i: Int) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hashes[i]) & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = Int32(i + 1)
    }

    private mutating func grow() {
        slots = [Int32](repeating: 0, count: Self.slotCount(for: max(8, keys.count * 2)))
        for i in keys.indices { place(i) }
    }

    private static func slotCount(for capacity: Int) -> Int {
        guard capacity > 0 else { return 0 }
        var n = 16
        while n < capacity * 2 { n *= 2 }
        return n
    }

    /// A hash of the bytes eight at a time (a multiply and a shift each), nil when a byte is not ASCII. Never stored:
    /// the byte order of a machine word does not matter.
    static func asciiHash(_ key: String) -> UInt64? {
        if let hash = key.utf8.withContiguousStorageIfAvailable({ hash(UnsafeRawBufferPointer($0)) }) { return hash }
        var key = key
        return key.withUTF8 { hash(UnsafeRawBufferPointer($0)) }
    }

    private static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64? {
        let count = bytes.count
        var hash = 0x9e37_79b9_7f4a_7c15 ^ UInt64(truncatingIfNeeded: count)
        var seen: UInt64 = 0
        var offset = 0
        while offset &+ 8 <= count {
            let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            seen |= word
            hash = (hash ^ word) &* 0xff51_afd7_ed55_8ccd
            hash ^= hash >> 32
            offset &+= 8
        }
        if offset < count {
            var word: UInt64 = 0
            var shift: UInt64 = 0
            while offset < count {
                word |= UInt64(bytes[offset]) << shift
                shift &+= 8
                offset &+= 1
            }
            seen |= word
            hash = (hash ^ word) &* 0xff51_afd7_ed55_8ccd
            hash ^= hash >> 32
        }
        return seen & 0x8080_8080_8080_8080 == 0 ? hash : nil
    }
}

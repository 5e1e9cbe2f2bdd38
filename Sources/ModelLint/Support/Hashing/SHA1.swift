/// SHA-1 (FIPS 180-4), for one purpose: git's blob ids, so a file in the work tree can be recognised as the very
/// blob the index holds without starting a git process. Never used where collision resistance matters: a match
/// only saves reading the blob from git, and git itself names blobs this way.
package enum SHA1 {
    package static func digest(_ bytes: [UInt8]) -> [UInt8] {
        var h: (UInt32, UInt32, UInt32, UInt32, UInt32) = (
            0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0
        )
        let whole = bytes.count / 64 * 64
        // The message's whole blocks are read where they are; only the last, padded ones are copied.
        var tail = Array(bytes[whole...])
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        let bitLength = UInt64(bytes.count) &* 8
        for shift in stride(from: 56, through: 0, by: -8) {
            tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 80) { w in
            bytes.withUnsafeBytes { message in
                for block in stride(from: 0, to: whole, by: 64) { compress(message.baseAddress! + block, &h, w) }
            }
            tail.withUnsafeBytes { padded in
                for block in stride(from: 0, to: padded.count, by: 64) { compress(padded.baseAddress! + block, &h, w) }
            }
        }
        return [h.0, h.1, h.2, h.3, h.4].flatMap { word in
            (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32(24 - 8 * $0)) }
        }
    }

    /// One 64-byte block into the state; `w` is the message schedule's room (80 words).
    private static func compress(
        _ block: UnsafeRawPointer, _ h: inout (UInt32, UInt32, UInt32, UInt32, UInt32),
        _ w: UnsafeMutableBufferPointer<UInt32>
    ) {
        func rotate(_ x: UInt32, _ n: UInt32) -> UInt32 { (x << n) | (x >> (32 - n)) }
        for i in 0..<16 { w[i] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self)) }
        for i in 16..<80 { w[i] = rotate(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1) }
        var (a, b, c, d, e) = h
        func round(_ f: UInt32, _ k: UInt32, _ i: Int) {
            let t = rotate(a, 5) &+ f &+ e &+ k &+ w[i]
            (e, d, c, b, a) = (d, c, rotate(b, 30), a, t)
        }
        for i in 0..<20 { round((b & c) | (~b & d), 0x5A82_7999, i) }
        for i in 20..<40 { round(b ^ c ^ d, 0x6ED9_EBA1, i) }
        for i in 40..<60 { round((b & c) | (b & d) | (c & d), 0x8F1B_BCDC, i) }
        for i in 60..<80 { round(b ^ c ^ d, 0xCA62_C1D6, i) }
        h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e)
    }
}

/// Git's name for a blob: the hash of `blob <size>\0` and the bytes, SHA-1 or (a repository in git's SHA-256
/// object format) SHA-256, in lowercase hex.
package enum GitBlobID {
    /// `bytes`' id in the format of `like` (another id: 40 hex digits for SHA-1, 64 for SHA-256); nil for another.
    package static func of(_ bytes: [UInt8], like: String) -> String? {
        let object = Array("blob \(bytes.count)\u{0}".utf8) + bytes
        switch like.utf8.count {
        case 40: return Hex.encode(SHA1.digest(object))
        case 64: return Hex.encode(SHA256.digest(object))
        default: return nil
        }
    }
}

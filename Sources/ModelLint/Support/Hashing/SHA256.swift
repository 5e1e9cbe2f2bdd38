/// SHA-256 (FIPS 180-4), so digests and Core Data's version hashes are identical on every platform without
/// CryptoKit (Foundation on Linux has none). Incremental: feed bytes with `update`, then `finalize`.
package struct SHA256: Sendable {
    private static let k: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    private var h: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
        (0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19)
    /// Bytes waiting for a full 64-byte block.
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    package init() {}

    package mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        if let done: Void = bytes.withContiguousStorageIfAvailable({ update(buffer: UnsafeRawBufferPointer($0)) }) {
            return done
        }
        let copy = Array(bytes)
        copy.withUnsafeBytes { update(buffer: $0) }
    }

    private mutating func update(buffer: UnsafeRawBufferPointer) {
        length &+= UInt64(buffer.count)
        var offset = 0
        if !pending.isEmpty {
            let take = min(64 - pending.count, buffer.count)
            pending.append(contentsOf: buffer[0..<take])
            offset = take
            guard pending.count == 64 else { return }
            pending.withUnsafeBytes { compress(UnsafeRawBufferPointer(rebasing: $0[0..<64])) }
            pending.removeAll(keepingCapacity: true)
        }
        while offset + 64 <= buffer.count {
            compress(UnsafeRawBufferPointer(rebasing: buffer[offset..<(offset + 64)]))
            offset += 64
        }
        if offset < buffer.count { pending.append(contentsOf: buffer[offset...]) }
    }

    package mutating func finalize() -> [UInt8] {
        // The padding and the length fill one block, or two when under 9 bytes are left: built on the stack, and
        // the digest written once (Core Data's hashes make thousands of small digests).
        let bitLength = length &* 8
        let used = pending.count
        let blocks = used < 56 ? 1 : 2
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { tail in
            tail.initialize(repeating: 0)
            pending.withUnsafeBufferPointer { _ = tail.initialize(from: $0) }
            tail[used] = 0x80
            let end = blocks &* 64
            for i in 0..<8 { tail[end &- 1 &- i] = UInt8(truncatingIfNeeded: bitLength >> UInt64(i &* 8)) }
            let raw = UnsafeRawBufferPointer(tail)
            for block in 0..<blocks {
                compress(UnsafeRawBufferPointer(rebasing: raw[(block &* 64)..<(block &* 64 &+ 64)]))
            }
        }
        pending.removeAll()
        let h = h
        return [UInt8](unsafeUninitializedCapacity: 32) { out, count in
            func put(_ word: UInt32, _ i: Int) {
                out[i &* 4] = UInt8(truncatingIfNeeded: word >> 24)
                out[i &* 4 &+ 1] = UInt8(truncatingIfNeeded: word >> 16)
                out[i &* 4 &+ 2] = UInt8(truncatingIfNeeded: word >> 8)
                out[i &* 4 &+ 3] = UInt8(truncatingIfNeeded: word)
            }
            put(h.0, 0)
            put(h.1, 1)
            put(h.2, 2)
            put(h.3, 3)
            put(h.4, 4)
            put(h.5, 5)
            put(h.6, 6)
            put(h.7, 7)
            count = 32
        }
    }

    private mutating func compress(_ block: UnsafeRawBufferPointer) {
        var (a, b, c, d, e, f, g, hh) = h
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            let base = block.baseAddress!
            // Each message word in one big-endian read.
            for i in 0..<16 { w[i] = UInt32(bigEndian: base.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self)) }
            for i in 16..<64 {
                let w15 = w[i &- 15]
                let w2 = w[i &- 2]
                let s0 = rotr(w15, 7) ^ rotr(w15, 18) ^ (w15 >> 3)
                let s1 = rotr(w2, 17) ^ rotr(w2, 19) ^ (w2 >> 10)
                w[i] = w[i &- 16] &+ s0 &+ w[i &- 7] &+ s1
            }
            // Eight rounds a step, the working variables' roles rotated through the arguments instead of the
            // variables moved one place each round.
            Self.k.withUnsafeBufferPointer { k in
                var i = 0
                while i < 64 {
                    round(a, b, c, &d, e, f, g, &hh, k[i] &+ w[i])
                    round(hh, a, b, &c, d, e, f, &g, k[i &+ 1] &+ w[i &+ 1])
                    round(g, hh, a, &b, c, d, e, &f, k[i &+ 2] &+ w[i &+ 2])
                    round(f, g, hh, &a, b, c, d, &e, k[i &+ 3] &+ w[i &+ 3])
                    round(e, f, g, &hh, a, b, c, &d, k[i &+ 4] &+ w[i &+ 4])
                    round(d, e, f, &g, hh, a, b, &c, k[i &+ 5] &+ w[i &+ 5])
                    round(c, d, e, &f, g, hh, a, &b, k[i &+ 6] &+ w[i &+ 6])
                    round(b, c, d, &e, f, g, hh, &a, k[i &+ 7] &+ w[i &+ 7])
                    i &+= 8
                }
            }
        }
        h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e, h.5 &+ f, h.6 &+ g, h.7 &+ hh)
    }

    /// One round: `d` becomes the next round's `e`, and `h` its `a`; the others only change names.
    @inline(__always) private func round(
        _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32, _ e: UInt32, _ f: UInt32, _ g: UInt32,
        _ h: inout UInt32, _ kw: UInt32
    ) {
        let t1 = h &+ (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) &+ ((e & f) ^ (~e & g)) &+ kw
        let t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) &+ ((a & b) ^ (a & c) ^ (b & c))
        d = d &+ t1
        h = t1 &+ t2
    }

    @inline(__always) private func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x &>> n) | (x &<< (32 &- n)) }

    package static func digest<Bytes: Sequence>(_ message: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var hasher = SHA256()
        hasher.update(message)
        return hasher.finalize()
    }

    package static func hex(_ text: String) -> String { hex(Array(text.utf8)) }

    package static func hex(_ bytes: [UInt8]) -> String { Hex.encode(digest(bytes)) }
}

/// Lowercase hex, as digests are written in lock files.
package enum Hex {
    package static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        append(bytes, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `encode`'s digits written onto `out`, as bytes: a listing of many ids is made without a string per id.
    @inlinable package static func append<Bytes: Sequence<UInt8>>(_ bytes: Bytes, to out: inout [UInt8]) {
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
    }

    @usableFromInline static let digits = Array("0123456789abcdef".utf8)

    /// The bytes `encode` wrote (either case); nil for anything else.
    package static func decode(_ text: String) -> [UInt8]? {
        func digit(_ c: UInt8) -> UInt8? {
            switch c {
            case 0x30...0x39: c - 0x30
            case 0x61...0x66: c - 0x61 + 10
            case 0x41...0x46: c - 0x41 + 10
            default: nil
            }
        }
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count / 2)
        for i in stride(from: 0, to: utf8.count, by: 2) {
            guard let high = digit(utf8[i]), let low = digit(utf8[i + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }
}

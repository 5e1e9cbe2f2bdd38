/// A 128-bit digest of bytes (MurmurHash3 x64 128, seed 0): what a baseline matches on, so a million accepted
/// findings cost 16 bytes of key each instead of the key's text. Not cryptographic: the baseline is the team's own
/// file, and whoever can write it can accept any finding anyway.
package struct Digest128: Hashable, Sendable {
    package var high: UInt64
    package var low: UInt64

    package init(_ bytes: [UInt8]) {
        self = bytes.withUnsafeBufferPointer { Self.murmur($0) }
    }

    package init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self = Self.murmur(bytes)
    }

    package init(_ text: String) {
        var text = text
        self = text.withUTF8 { Self.murmur($0) }
    }

    private init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    private static func murmur(_ data: UnsafeBufferPointer<UInt8>) -> Digest128 {
        let c1: UInt64 = 0x87c3_7b91_1142_53d5
        let c2: UInt64 = 0x4cf5_ad43_2745_937f
        var h1: UInt64 = 0
        var h2: UInt64 = 0
        func rotl(_ x: UInt64, _ r: UInt64) -> UInt64 { (x << r) | (x >> (64 - r)) }
        func load(_ at: Int, _ count: Int) -> UInt64 {
            var v: UInt64 = 0
            for i in 0..<count { v |= UInt64(data[at + i]) << (8 * UInt64(i)) }
            return v
        }
        func fmix(_ k: UInt64) -> UInt64 {
            var k = k
            k ^= k >> 33
            k = k &* 0xff51_afd7_ed55_8ccd
            k ^= k >> 33
            k = k &* 0xc4ce_b9fe_1a85_ec53
            k ^= k >> 33
            return k
        }
        let blocks = data.count / 16
        let base = UnsafeRawPointer(data.baseAddress)
        for b in 0..<blocks {
            var k1 = UInt64(littleEndian: base!.loadUnaligned(fromByteOffset: b * 16, as: UInt64.self))
            var k2 = UInt64(littleEndian: base!.loadUnaligned(fromByteOffset: b * 16 + 8, as: UInt64.self))
            k1 = k1 &* c1
            k1 = rotl(k1, 31)
            k1 = k1 &* c2
            h1 ^= k1
            h1 = rotl(h1, 27)
            h1 = h1 &+ h2
            h1 = h1 &* 5 &+ 0x52dc_e729
            k2 = k2 &* c2
            k2 = rotl(k2, 33)
            k2 = k2 &* c1
            h2 ^= k2
            h2 = rotl(h2, 31)
            h2 = h2 &+ h1
            h2 = h2 &* 5 &+ 0x3849_5ab5
        }
        let tail = blocks * 16
        let rest = data.count - tail
        if rest > 8 {
            var k2 = load(tail + 8, rest - 8)
            k2 = k2 &* c2
            k2 = rotl(k2, 33)
            k2 = k2 &* c1
            h2 ^= k2
        }
        if rest > 0 {
            var k1 = load(tail, min(rest, 8))
            k1 = k1 &* c1
            k1 = rotl(k1, 31)
            k1 = k1 &* c2
            h1 ^= k1
        }
        h1 ^= UInt64(data.count)
        h2 ^= UInt64(data.count)
        h1 = h1 &+ h2
        h2 = h2 &+ h1
        h1 = fmix(h1)
        h2 = fmix(h2)
        h1 = h1 &+ h2
        h2 = h2 &+ h1
        return Digest128(high: h1, low: h2)
    }
}

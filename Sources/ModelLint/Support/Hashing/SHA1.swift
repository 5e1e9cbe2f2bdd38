/// SHA-1 (FIPS 180-4), for one purpose: git's blob ids, so a file in the work tree can be recognised as the very
/// blob the index holds without starting a git process. Never used where collision resistance matters: a match
/// only saves reading the blob from git, and git itself names blobs this way.
public enum SHA1 {
    public static func digest(_ bytes: [UInt8]) -> [UInt8] {
        var h: (UInt32, UInt32, UInt32, UInt32, UInt32) = (
            0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0
        )
        var message = bytes
        let bitLength = UInt64(bytes.count) &* 8
        message.append(0x80)
        while message.count % 64 != 56 { message.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) {
            message.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        var w = [UInt32](repeating: 0, count: 80)
        func rotate(_ x: UInt32, _ n: UInt32) -> UInt32 { (x << n) | (x >> (32 - n)) }
        for block in stride(from: 0, to: message.count, by: 64) {
            for i in 0..<16 {
                let at = block + i * 4
                w[i] =
                    UInt32(message[at]) << 24 | UInt32(message[at + 1]) << 16 | UInt32(message[at + 2]) << 8
                    | UInt32(message[at + 3])
            }
            for i in 16..<80 { w[i] = rotate(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1) }
            var (a, b, c, d, e) = h
            for i in 0..<80 {
                let f: UInt32
                let k: UInt32
                switch i {
                case 0..<20: (f, k) = ((b & c) | (~b & d), 0x5A82_7999)
                case 20..<40: (f, k) = (b ^ c ^ d, 0x6ED9_EBA1)
                case 40..<60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                default: (f, k) = (b ^ c ^ d, 0xCA62_C1D6)
                }
                let t = rotate(a, 5) &+ f &+ e &+ k &+ w[i]
                (e, d, c, b, a) = (d, c, rotate(b, 30), a, t)
            }
            h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e)
        }
        return [h.0, h.1, h.2, h.3, h.4].flatMap { word in
            (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32(24 - 8 * $0)) }
        }
    }
}

/// Git's name for a blob: the hash of `blob <size>\0` and the bytes, SHA-1 or (a repository in git's SHA-256
/// object format) SHA-256, in lowercase hex.
public enum GitBlobID {
    /// `bytes`' id in the format of `like` (another id: 40 hex digits for SHA-1, 64 for SHA-256); nil for another.
    public static func of(_ bytes: [UInt8], like: String) -> String? {
        let object = Array("blob \(bytes.count)\u{0}".utf8) + bytes
        switch like.utf8.count {
        case 40: return Hex.encode(SHA1.digest(object))
        case 64: return Hex.encode(SHA256.digest(object))
        default: return nil
        }
    }
}

/// Foundation's XML and JSON5 readers trap on some malformed UTF-8 (found by fuzzing), so every reader of
/// untrusted text checks the bytes first.
package enum UTF8Validation {
    /// The offset of the first byte that is not part of a well-formed UTF-8 sequence (RFC 3629: no overlong
    /// forms, no surrogates, nothing above U+10FFFF).
    package static func firstInvalidByte(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress else { return nil }
            var i = 0
            let n = buffer.count
            while i < n {
                // Runs of ASCII, most of a contents file, eight bytes at a time.
                while i + 8 <= n, UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0
                {
                    i += 8
                }
                guard i < n else { return nil }
                let b = buffer[i]
                if b < 0x80 {
                    i += 1
                    continue
                }
                let length: Int
                var low: UInt8 = 0x80
                var high: UInt8 = 0xBF
                switch b {
                case 0xC2...0xDF: length = 2
                case 0xE0:
                    length = 3
                    low = 0xA0
                case 0xE1...0xEC, 0xEE...0xEF: length = 3
                case 0xED:
                    length = 3
                    high = 0x9F
                case 0xF0:
                    length = 4
                    low = 0x90
                case 0xF1...0xF3: length = 4
                case 0xF4:
                    length = 4
                    high = 0x8F
                default: return i
                }
                guard i + length <= n else { return i }
                guard buffer[i + 1] >= low && buffer[i + 1] <= high else { return i }
                for k in 2..<max(length, 2) where buffer[i + k] < 0x80 || buffer[i + k] > 0xBF { return i }
                i += length
            }
            return nil
        }
    }
}

/// Base64 text decoded as Foundation's `Data(base64Encoded:options: .ignoreUnknownCharacters)` decodes it, on every
/// platform alike: bytes outside the alphabet are skipped and `=` is padding. Foundation's decoder takes that path a byte
/// at a time; a mapping model embeds two archives of up to megabytes each, so this one reads four letters at a time
/// when they are four letters. Text that is no base64 (a letter after padding, letters and padding not a multiple of
/// four, a tail of one letter, no letter at all) is nil, where Foundation's decoders differ between versions.
package enum Base64 {
    private static let alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8
    /// Anything but a letter, in `groupBits`: above the 24 bits a group decodes to.
    private static let notALetter: UInt32 = 0xFF00_0000

    /// Four tables of 256: a letter's six bits already in their place in the first, second, third or fourth letter
    /// of a group, so one group is four lookups or-ed together.
    private static let groupBits: [UInt32] = {
        var table = [UInt32](repeating: notALetter, count: 4 * 256)
        for (value, letter) in alphabet.enumerated() {
            for position in 0..<4 {
                table[position * 256 + Int(letter)] = UInt32(value) << (6 * (3 - position))
            }
        }
        return table
    }()

    /// The bytes `text` encodes, or nil when it is not base64.
    package static func decode(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard let start = text.baseAddress, !text.isEmpty else { return [] }
        var isBase64 = false
        let decoded = [UInt8](unsafeUninitializedCapacity: text.count / 4 * 3 + 3) { output, written in
            isBase64 = groupBits.withUnsafeBufferPointer { table in
                decode(start, count: text.count, table: table, into: output.baseAddress!, written: &written)
            }
        }
        return isBase64 ? decoded : nil
    }

    private static func decode(
        _ text: UnsafePointer<UInt8>, count end: Int, table: UnsafeBufferPointer<UInt32>,
        into output: UnsafeMutablePointer<UInt8>, written: inout Int
    ) -> Bool {
        var at = 0
        var out = 0
        // Letters of the group being read one at a time, and their bits so far.
        var pending = 0
        var bits: UInt32 = 0
        var paddingCount = 0
        while at < end {
            // Whole groups of four letters: three bytes each.
            if pending == 0 && paddingCount == 0 {
                while at &+ 4 <= end {
                    let group =
                        table[Int(text[at])] | table[256 &+ Int(text[at &+ 1])] | table[512 &+ Int(text[at &+ 2])]
                        | table[768 &+ Int(text[at &+ 3])]
                    guard group & notALetter == 0 else { break }
                    output[out] = UInt8(truncatingIfNeeded: group &>> 16)
                    output[out &+ 1] = UInt8(truncatingIfNeeded: group &>> 8)
                    output[out &+ 2] = UInt8(truncatingIfNeeded: group)
                    out &+= 3
                    at &+= 4
                }
                guard at < end else { break }
            }
            // One byte: a letter, padding, or anything else (skipped).
            let byte = text[at]
            at &+= 1
            let letter = table[768 &+ Int(byte)]
            if letter & notALetter != 0 {
                if byte == UInt8(ascii: "=") { paddingCount += 1 }
                continue
            }
            // A letter after padding.
            guard paddingCount == 0 else { return false }
            bits = bits << 6 | letter
            pending += 1
            if pending == 4 {
                output[out] = UInt8(truncatingIfNeeded: bits >> 16)
                output[out &+ 1] = UInt8(truncatingIfNeeded: bits >> 8)
                output[out &+ 2] = UInt8(truncatingIfNeeded: bits)
                out &+= 3
                pending = 0
                bits = 0
            }
        }
        // The last group's letters: two give one byte, three give two.
        guard (pending + paddingCount) % 4 == 0, pending != 1, out > 0 || pending > 0 else { return false }
        if pending >= 2 {
            bits <<= 6 * UInt32(4 - pending)
            output[out] = UInt8(truncatingIfNeeded: bits >> 16)
            out += 1
            if pending == 3 {
                output[out] = UInt8(truncatingIfNeeded: bits >> 8)
                out += 1
            }
        }
        written = out
        return true
    }
}

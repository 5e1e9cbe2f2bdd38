import ModelLintModel

/// Raw DEFLATE (RFC 1951, no zlib header), as Core Data compresses a store's cached model (`Z_MODELCACHE`).
/// Stored, fixed-Huffman and dynamic-Huffman blocks. Every code, length and distance is checked, and the output
/// is capped: a hostile stream is an error, never a trap or an unbounded allocation.
package enum Inflate {
    package struct InflateError: Error, Equatable, CustomStringConvertible {
        package var description: String

        package init(description: String) {
            self.description = description
        }
    }

    package static func decompress(_ input: [UInt8], limit: Int = 64 << 20) throws -> [UInt8] {
        var reader = BitReader(bytes: input)
        var out: [UInt8] = []
        var last = false
        while !last {
            last = try reader.bits(1) == 1
            switch try reader.bits(2) {
            case 0:
                reader.alignToByte()
                let length = try reader.bits(16)
                let complement = try reader.bits(16)
                guard length == ~complement & 0xFFFF else {
                    throw InflateError(description: "a stored block's length check fails")
                }
                guard out.count + length <= limit else { throw InflateError(description: "output over \(limit) bytes") }
                out += try reader.bytes(length)
            case 1:
                try block(&reader, &out, literals: fixedLiterals, distances: fixedDistances, limit: limit)
            case 2:
                let (literals, distances) = try dynamicTables(&reader)
                try block(&reader, &out, literals: literals, distances: distances, limit: limit)
            default:
                throw InflateError(description: "a block of the reserved type 3")
            }
        }
        return out
    }

    package struct BitReader {
        package let bytes: [UInt8]
        package var position = 0, bit = 0

        package mutating func bits(_ n: Int) throws -> Int {
            var value = 0
            for i in 0..<n {
                guard position < bytes.count else { throw InflateError(description: "the stream ends early") }
                value |= Int((bytes[position] >> bit) & 1) << i
                bit += 1
                if bit == 8 {
                    bit = 0
                    position += 1
                }
            }
            return value
        }

        package mutating func alignToByte() {
            if bit != 0 {
                bit = 0
                position += 1
            }
        }

        package mutating func bytes(_ n: Int) throws -> ArraySlice<UInt8> {
            guard position + n <= bytes.count else {
                throw InflateError(description: "a stored block runs past the stream")
            }
            defer { position += n }
            return bytes[position..<(position + n)]
        }
        package init(bytes: [UInt8]) {
            self.bytes = bytes
        }
    }

    /// A canonical Huffman code: symbols by (length, value), decoded bit by bit.
    package struct Huffman {
        package var counts = [Int](repeating: 0, count: 16)
        package var symbols: [Int] = []

        package init(lengths: [Int]) throws {
            for l in lengths { counts[l] += 1 }
            counts[0] = 0
            var offsets = [Int](repeating: 0, count: 16)
            for l in 1..<16 { offsets[l] = offsets[l - 1] + counts[l - 1] }
            symbols = [Int](repeating: 0, count: lengths.count)
            for (symbol, l) in lengths.enumerated() where l != 0 {
                symbols[offsets[l]] = symbol
                offsets[l] += 1
            }
            // An over-subscribed code would decode garbage.
            var left = 1
            for l in 1..<16 {
                left = left * 2 - counts[l]
                if left < 0 { throw InflateError(description: "an over-subscribed Huffman code") }
            }
        }

        package func decode(_ reader: inout BitReader) throws -> Int {
            var code = 0
            var first = 0
            var index = 0
            for l in 1..<16 {
                code |= try reader.bits(1)
                let count = counts[l]
                if code - first < count { return symbols[index + code - first] }
                index += count
                first = (first + count) << 1
                code <<= 1
            }
            throw InflateError(description: "an invalid Huffman code")
        }
    }

    package static let lengthBase = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227,
        258,
    ]
    package static let lengthExtra = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ]
    package static let distanceBase = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
        6145, 8193, 12289, 16385, 24577,
    ]
    package static let distanceExtra = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
    ]

    package static let fixedLiterals = try! Huffman(
        lengths: (0..<288).map { $0 < 144 ? 8 : $0 < 256 ? 9 : $0 < 280 ? 7 : 8 })
    package static let fixedDistances = try! Huffman(lengths: [Int](repeating: 5, count: 30))

    package static func dynamicTables(_ reader: inout BitReader) throws -> (Huffman, Huffman) {
        let literalCount = try reader.bits(5) + 257
        let distanceCount = try reader.bits(5) + 1
        let codeCount = try reader.bits(4) + 4
        guard literalCount <= 286, distanceCount <= 30 else {
            throw InflateError(description: "too many codes in a dynamic block")
        }
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
        var codeLengths = [Int](repeating: 0, count: 19)
        for i in 0..<codeCount { codeLengths[order[i]] = try reader.bits(3) }
        let lengthCode = try Huffman(lengths: codeLengths)
        var lengths: [Int] = []
        while lengths.count < literalCount + distanceCount {
            let symbol = try lengthCode.decode(&reader)
            switch symbol {
            case 0...15: lengths.append(symbol)
            case 16:
                guard let previous = lengths.last else {
                    throw InflateError(description: "a repeat with nothing to repeat")
                }
                lengths += [Int](repeating: previous, count: 3 + (try reader.bits(2)))
            case 17: lengths += [Int](repeating: 0, count: 3 + (try reader.bits(3)))
            default: lengths += [Int](repeating: 0, count: 11 + (try reader.bits(7)))
            }
        }
        guard lengths.count == literalCount + distanceCount, lengths[256] != 0 else {
            throw InflateError(description: "a dynamic block's code lengths are inconsistent")
        }
        return (
            try Huffman(lengths: Array(lengths[..<literalCount])), try Huffman(lengths: Array(lengths[literalCount...]))
        )
    }

    package static func block(
        _ reader: inout BitReader, _ out: inout [UInt8], literals: Huffman, distances: Huffman, limit: Int
    ) throws {
        while true {
            let symbol = try literals.decode(&reader)
            if symbol < 256 {
                guard out.count < limit else { throw InflateError(description: "output over \(limit) bytes") }
                out.append(UInt8(symbol))
                continue
            }
            if symbol == 256 { return }
            let index = symbol - 257
            guard index < lengthBase.count else { throw InflateError(description: "an invalid length code") }
            let length = lengthBase[index] + (try reader.bits(lengthExtra[index]))
            let distanceCode = try distances.decode(&reader)
            guard distanceCode < distanceBase.count else { throw InflateError(description: "an invalid distance code") }
            let distance = distanceBase[distanceCode] + (try reader.bits(distanceExtra[distanceCode]))
            guard distance <= out.count else {
                throw InflateError(description: "a distance before the start of the output")
            }
            guard out.count + length <= limit else { throw InflateError(description: "output over \(limit) bytes") }
            let start = out.count - distance
            for i in 0..<length { out.append(out[start + i]) }
        }
    }
}

import Foundation

/// A binary property list (`bplist00`), read into a flat object table without recursion: containers hold the
/// indices of their members, so a cyclic or deeply nested file costs nothing to read, and `UID`s (the references
/// of an NSKeyedArchiver archive) stay plain numbers on every platform. Every offset, count and reference is
/// checked against the file; anything out of bounds is an error naming what was wrong, never a trap. Each
/// distinct object is decoded once, so the work is linear in the file's size however its objects are shared.
public struct BinaryPropertyList: Sendable {
    public enum Object: Sendable, Equatable {
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

    public struct ReadError: Error, Equatable, CustomStringConvertible {
        public var description: String

        package init(description: String) {
            self.description = description
        }
    }

    public let objects: [Object]
    /// For each slot, the first slot that names the same object (the same offset): a graph walker keys its
    /// memo and its cycle check by this, so an object is visited once however many slots name it.
    public let identity: [Int]
    public let top: Int

    public init(bytes: [UInt8]) throws {
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
        let n = Int(count)
        var objects: [Object] = []
        objects.reserveCapacity(n)
        // Slots that share an offset share the object: a table of N slots all naming one big object costs one
        // parse, not N (copies of an Object share their storage).
        var slotAt: [Int: Int] = [:]
        var identity: [Int] = []
        identity.reserveCapacity(n)
        for index in 0..<n {
            let offset = be(Int(tableOffset) + index * offsetSize, offsetSize)
            guard offset >= 8, offset < tableOffset else { throw fail("object \(index) outside the object area") }
            if let earlier = slotAt[Int(offset)] {
                objects.append(objects[earlier])
                identity.append(earlier)
                continue
            }
            slotAt[Int(offset)] = index
            identity.append(index)
            objects.append(
                try Self.object(
                    at: Int(offset), in: bytes, end: Int(tableOffset), refSize: refSize, count: n, fail: fail))
        }
        self.objects = objects
        self.identity = identity
        top = Int(topIndex)
    }

    private static func object(
        at start: Int, in bytes: [UInt8], end: Int, refSize: Int, count: Int, fail: (String) -> ReadError
    ) throws -> Object {
        var at = start
        func take(_ width: Int) throws -> ArraySlice<UInt8> {
            guard width >= 0, at <= end - width else { throw fail("object at \(start) runs past the object area") }
            defer { at += width }
            return bytes[at..<(at + width)]
        }
        func integer(_ slice: ArraySlice<UInt8>) -> UInt64 { slice.reduce(0) { $0 << 8 | UInt64($1) } }
        let marker = try take(1).first!
        let kind = marker >> 4
        let low = Int(marker & 0x0F)
        // A length: the low nibble, or (0xF) an integer object that follows.
        func length() throws -> Int {
            guard low == 0x0F else { return low }
            let next = try take(1).first!
            guard next >> 4 == 0x1, next & 0x0F <= 3 else { throw fail("bad length at \(start)") }
            let value = integer(try take(1 << Int(next & 0x0F)))
            guard value <= UInt64(end) else { throw fail("length past the file at \(start)") }
            return Int(value)
        }
        func references(_ n: Int) throws -> [Int] {
            guard n <= (end - at) / refSize else { throw fail("container at \(start) runs past the object area") }
            return try (0..<n).map { _ in
                let ref = integer(try take(refSize))
                guard ref < UInt64(count) else { throw fail("reference out of range at \(start)") }
                return Int(ref)
            }
        }
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
            let slice = try take(1 << low)
            // 16-byte integers keep their low 64 bits; 8-byte ones are signed.
            return .integer(Int64(bitPattern: integer(slice.suffix(8))))
        case 0x2, 0x3:
            guard low == 2 || low == 3 else { throw fail("bad real at \(start)") }
            let bits = integer(try take(1 << low))
            let value = low == 2 ? Double(Float(bitPattern: UInt32(bits))) : Double(bitPattern: bits)
            return kind == 0x2 ? .real(value) : .date(value)
        case 0x4:
            return .data(Array(try take(try length())))
        case 0x5:
            return .string(String(decoding: try take(try length()), as: UTF8.self))
        case 0x6:
            let units = try length()
            guard units <= (end - at) / 2 else { throw fail("string past the object area at \(start)") }
            let raw = try take(units * 2)
            let utf16 = stride(from: raw.startIndex, to: raw.endIndex, by: 2).map {
                UInt16(raw[$0]) << 8 | UInt16(raw[$0 + 1])
            }
            return .string(String(decoding: utf16, as: UTF16.self))
        case 0x8:
            return .uid(Int(integer(try take(low + 1)) & 0x7FFF_FFFF))
        case 0xA:
            return .array(try references(try length()))
        case 0xC:
            return .set(try references(try length()))
        case 0xD:
            let n = try length()
            guard n <= (end - at) / (2 * refSize) else {
                throw fail("dictionary at \(start) runs past the object area")
            }
            return .dictionary(keys: try references(n), values: try references(n))
        default:
            throw fail("unknown marker \(marker) at \(start)")
        }
    }
}

import Foundation

/// Binary property lists written by hand, object by object, for inputs no well-behaved writer produces: objects
/// shared by many references, offset-table slots that all name one object. References are slot indices; `slots` (default: one per object) says which object each slot names.
struct PlistBuilder {
    indirect enum Node {
        case string(String)
        case integer(Int)
        case uid(Int)
        case data([UInt8])
        case array([Int])
        case dictionary([(key: Int, value: Int)])
    }

    private(set) var nodes: [Node] = []

    mutating func add(_ node: Node) -> Int {
        nodes.append(node)
        return nodes.count - 1
    }

    func build(top: Int, slots: [Int]? = nil) -> [UInt8] {
        let slots = slots ?? Array(nodes.indices)
        let refSize = slots.count <= 0xFF ? 1 : slots.count <= 0xFFFF ? 2 : 4
        var out = Array("bplist00".utf8)
        func be(_ value: Int, _ width: Int) -> [UInt8] {
            (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
        }
        func marker(_ kind: UInt8, _ count: Int) -> [UInt8] {
            count < 15 ? [kind << 4 | UInt8(count)] : [kind << 4 | 0x0F, 0x12] + be(count, 4)
        }
        var offsets: [Int] = []
        for node in nodes {
            offsets.append(out.count)
            switch node {
            case .string(let s):
                let ascii = s.unicodeScalars.allSatisfy { $0.isASCII }
                if ascii {
                    out += marker(0x5, s.utf8.count) + Array(s.utf8)
                } else {
                    let units = Array(s.utf16)
                    out += marker(0x6, units.count) + units.flatMap { be(Int($0), 2) }
                }
            case .integer(let i): out += [0x13] + be(i, 8)
            case .uid(let u): out += [0x83] + be(u, 4)
            case .data(let d): out += marker(0x4, d.count) + d
            case .array(let refs): out += marker(0xA, refs.count) + refs.flatMap { be($0, refSize) }
            case .dictionary(let pairs):
                out +=
                    marker(0xD, pairs.count) + pairs.flatMap { be($0.key, refSize) }
                    + pairs.flatMap { be($0.value, refSize) }
            }
        }
        let tableOffset = out.count
        let offsetSize = 4
        for slot in slots { out += be(offsets[slot], offsetSize) }
        out +=
            [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(refSize)] + be(slots.count, 8) + be(top, 8) + be(tableOffset, 8)
        return out
    }
}

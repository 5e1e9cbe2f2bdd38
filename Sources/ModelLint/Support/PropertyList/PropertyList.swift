import Foundation

/// Untrusted property lists, parsed without the crashes of Foundation's on Linux: a binary plist whose set
/// holds a dictionary makes PropertyListSerialization's bridging dereference null (found by the fuzzer; a
/// hostile `.xccurrentversion` would stop the run). Binary plists go through BinaryPropertyList (no sets are
/// bridged: they become arrays; references that loop or nest too deep are refused); XML and OpenStep ones,
/// which have no sets, through PropertyListSerialization.
package enum PropertyList {
    package struct ParseError: Error, CustomStringConvertible {
        package var description: String

        package init(description: String) {
            self.description = description
        }
    }

    /// The plist as Swift values: [String: Any], [Any], String, Int, Double, Bool, Data, Date.
    package static func parse(_ data: Data) throws -> Any {
        guard data.starts(with: Array("bplist".utf8)) else {
            return try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        }
        guard data.starts(with: Array("bplist00".utf8)) else {
            throw ParseError(description: "an unknown binary property list version")
        }
        let plist = try BinaryPropertyList(bytes: [UInt8](data))
        var active = Set<Int>()
        // An object referenced from many places is converted once and shared (Swift's collections are values
        // with shared storage): a graph whose objects reference each other twice per level would otherwise
        // expand into a tree exponential in its depth.
        var converted: [Int: Any] = [:]
        func value(_ slot: Int, depth: Int) throws -> Any {
            let index = plist.identity(slot)
            if let done = converted[index] { return done }
            guard depth < 64 else { throw ParseError(description: "a property list nested more than 64 levels deep") }
            guard active.insert(index).inserted else {
                throw ParseError(description: "a property list that contains itself")
            }
            defer { active.remove(index) }
            let result = try convert(index, depth: depth)
            converted[index] = result
            return result
        }
        func convert(_ index: Int, depth: Int) throws -> Any {
            switch plist.objects[index] {
            case .null: return NSNull()
            case .bool(let b): return b
            case .integer(let i): return Int(truncatingIfNeeded: i)
            case .real(let d): return d
            case .date(let d): return Date(timeIntervalSinceReferenceDate: d)
            case .data(let bytes): return Data(bytes)
            case .string(let s): return s
            case .uid(let u): return ["CF$UID": u]
            case .array(let items), .set(let items): return try items.map { try value($0, depth: depth + 1) }
            case .dictionary(let keys, let values):
                var result: [String: Any] = [:]
                for (k, v) in zip(keys, values) {
                    guard case .string(let key) = plist.objects[k] else {
                        throw ParseError(description: "a dictionary key that is not a string")
                    }
                    result[key] = try value(v, depth: depth + 1)
                }
                return result
            }
        }
        return try value(plist.top, depth: 0)
    }
}

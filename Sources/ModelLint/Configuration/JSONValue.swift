import Foundation

/// Any JSON value, objects keeping their key order. Used to read configuration and lock files
/// strictly (every key checked) and to write reports with a stable, documented key order.
public indirect enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case let (.bool(x), .bool(y)): return x == y
        case let (.number(x), .number(y)): return x == y
        case let (.string(x), .string(y)): return x == y
        case let (.array(x), .array(y)): return x == y
        case let (.object(x), .object(y)): return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let pairs) = self { return pairs.first { $0.0 == key }?.1 }
        return nil
    }

    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
    public var objectValue: [(String, JSONValue)]? { if case .object(let o) = self { return o } else { return nil } }
    public var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    public var intValue: Int? { if case .number(let n) = self, n == n.rounded(), abs(n) < 1e15 { return Int(n) } else { return nil } }

    /// Compact or indented text with the keys in their stored order.
    public func serialized(indent: Int? = 2) -> String {
        var out: [UInt8] = []
        write(to: &out, level: 0, indent: indent)
        return String(decoding: out, as: UTF8.self)
    }

    // Bytes, not string concatenation: a report of a large bundle is written in one pass without temporaries.
    private func write(to out: inout [UInt8], level: Int, indent: Int?) {
        func lineBreak(_ level: Int) {
            guard let indent else { return }
            out.append(0x0A)
            out.append(contentsOf: repeatElement(0x20, count: indent * level))
        }
        switch self {
        case .null: out += "null".utf8
        case .bool(let b): out += (b ? "true" : "false").utf8
        case .number(let n):
            out += (n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)).utf8
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .array(let items):
            if items.isEmpty { out += "[]".utf8; return }
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                lineBreak(level + 1)
                item.write(to: &out, level: level + 1, indent: indent)
                if i + 1 < items.count { out.append(UInt8(ascii: ",")) }
            }
            lineBreak(level)
            out.append(UInt8(ascii: "]"))
        case .object(let pairs):
            if pairs.isEmpty { out += "{}".utf8; return }
            out.append(UInt8(ascii: "{"))
            for (i, (key, value)) in pairs.enumerated() {
                lineBreak(level + 1)
                JSONValue.writeString(key, to: &out)
                out += (indent == nil ? ":" : ": ").utf8
                value.write(to: &out, level: level + 1, indent: indent)
                if i + 1 < pairs.count { out.append(UInt8(ascii: ",")) }
            }
            lineBreak(level)
            out.append(UInt8(ascii: "}"))
        }
    }

    static func writeString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += "\\\"".utf8
            case UInt8(ascii: "\\"): out += "\\\\".utf8
            case 0x0A: out += "\\n".utf8
            case 0x0D: out += "\\r".utf8
            case 0x09: out += "\\t".utf8
            case ..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out += "\\u00".utf8
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Parses JSON, or JSON5 (comments, trailing commas), with Foundation's decoder.
    /// Nesting beyond `maxDepth` is refused before decoding, so hostile input cannot exhaust the stack.
    public static func parse(_ data: Data, maxDepth: Int = 64, json5: Bool = true) throws -> JSONValue {
        if let offset = UTF8Validation.firstInvalidByte([UInt8](data)) {
            throw JSONParseError(message: "not valid UTF-8 (byte \(offset))")
        }
        var depth = 0
        var inString = false
        var escaped = false
        for byte in data {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                if depth > maxDepth { throw JSONParseError(message: "nested more than \(maxDepth) levels deep") }
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            default: break
            }
        }
        let decoder = JSONDecoder()
        decoder.allowsJSON5 = json5
        do {
            return try decoder.decode(JSONValue.self, from: data)
        } catch let DecodingError.dataCorrupted(context) {
            let detail = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String ?? context.debugDescription
            throw JSONParseError(message: "not valid JSON: \(detail)")
        } catch {
            throw JSONParseError(message: "not valid JSON: \(error)")
        }
    }
}

public struct JSONParseError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

extension JSONValue: Decodable {
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: Decoder) throws {
        if let container = try? decoder.container(keyedBy: Key.self) {
            // allKeys order is not the file's order; sort so the value is deterministic.
            self = .object(try container.allKeys.sorted { $0.stringValue < $1.stringValue }.map {
                ($0.stringValue, try container.decode(JSONValue.self, forKey: $0))
            })
            return
        }
        if var container = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            while !container.isAtEnd { items.append(try container.decode(JSONValue.self)) }
            self = .array(items)
            return
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let b = try? container.decode(Bool.self) { self = .bool(b) }
        else if let n = try? container.decode(Double.self) { self = .number(n) }
        else { self = .string(try container.decode(String.self)) }
    }
}

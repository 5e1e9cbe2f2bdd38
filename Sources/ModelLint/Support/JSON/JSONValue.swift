import Foundation

/// Any JSON value, objects keeping their key order. Used to read configuration and lock files
/// strictly (every key checked) and to write reports with a stable, documented key order.
package indirect enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    package static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    package subscript(key: String) -> JSONValue? {
        if case .object(let pairs) = self { return pairs.first { $0.0 == key }?.1 }
        return nil
    }

    package var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    package var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
    package var objectValue: [(String, JSONValue)]? { if case .object(let o) = self { return o } else { return nil } }
    package var doubleValue: Double? { if case .number(let n) = self { return n } else { return nil } }
    package var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    package var intValue: Int? {
        if case .number(let n) = self, n == n.rounded(), abs(n) < 1e15 { return Int(n) } else { return nil }
    }

    /// Compact or indented text with the keys in their stored order.
    package func serialized(indent: Int? = 2) -> String {
        var out: [UInt8] = []
        write(to: &out, level: 0, indent: indent)
        return String(decoding: out, as: UTF8.self)
    }

    // Bytes, not string concatenation: a report of a large bundle is written in one pass without temporaries.
    package func write(to out: inout [UInt8], level: Int, indent: Int?) {
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
            if items.isEmpty {
                out += "[]".utf8
                return
            }
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                lineBreak(level + 1)
                item.write(to: &out, level: level + 1, indent: indent)
                if i + 1 < items.count { out.append(UInt8(ascii: ",")) }
            }
            lineBreak(level)
            out.append(UInt8(ascii: "]"))
        case .object(let pairs):
            if pairs.isEmpty {
                out += "{}".utf8
                return
            }
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

    package static func writeString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Rare: C1 controls, bidi overrides and line separators (from a hostile file) are written as \u escapes
        // of the same value, so a report viewed raw cannot be made to read other than it is.
        let slow =
            s.utf8.contains { $0 >= 0x80 }
            && s.unicodeScalars.contains { $0.value >= 0x80 && ReportText.isUnsafe($0.value) }
        if slow {
            for scalar in s.unicodeScalars {
                if scalar.value >= 0x80 {
                    if ReportText.isUnsafe(scalar.value) {
                        appendEscape(scalar.value, to: &out)
                    } else {
                        out += String(scalar).utf8
                    }
                } else {
                    appendASCII(UInt8(scalar.value), to: &out)
                }
            }
        } else if s.utf8.withContiguousStorageIfAvailable({ appendPlainRuns($0, to: &out) }) == nil {
            for byte in s.utf8 { appendASCII(byte, to: &out) }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// `appendASCII` over every byte, with each run of bytes that need no escape appended at once (nearly all
    /// of a report): a quote, a backslash, a control character, DEL and `[` end a run.
    private static func appendPlainRuns(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        var start = 0
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            if byte >= 0x20, byte != 0x7F, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\"),
                byte != UInt8(ascii: "[")
            {
                i &+= 1
                continue
            }
            if start < i { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i])) }
            appendASCII(byte, to: &out)
            i &+= 1
            start = i
        }
        if start < i { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i])) }
    }

    @inline(__always) private static func appendASCII(_ byte: UInt8, to out: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): out += "\\\"".utf8
        case UInt8(ascii: "\\"): out += "\\\\".utf8
        case 0x0A: out += "\\n".utf8
        case 0x0D: out += "\\r".utf8
        case 0x09: out += "\\t".utf8
        case ..<0x20, 0x7F: appendEscape(UInt32(byte), to: &out)
        // `##[` is the GitHub runner's legacy command syntax wherever it stands in a line: a report printed to a
        // CI log must not hold it, and JSON has an escape that keeps the value.
        case UInt8(ascii: "[")
        where out.count >= 2 && out[out.count - 1] == UInt8(ascii: "#") && out[out.count - 2] == UInt8(ascii: "#"):
            appendEscape(UInt32(byte), to: &out)
        default: out.append(byte)
        }
    }

    private static func appendEscape(_ value: UInt32, to out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        out += "\\u".utf8
        for shift in stride(from: 12, through: 0, by: -4) { out.append(hex[Int((value >> UInt32(shift)) & 0xF)]) }
    }

    /// Parses JSON, or JSON5 (comments, trailing commas, ...), keys in file order (`JSONParser`).
    /// Nesting beyond `maxDepth` is refused, so hostile input cannot exhaust the stack.
    package static func parse(_ data: Data, maxDepth: Int = 64, json5: Bool = true) throws -> JSONValue {
        try parseLocated(data, maxDepth: maxDepth, json5: json5, keyLineDepth: 0).value
    }

    /// The value and the line of every object key (`JSONParser.keyPath`), for findings that point into the file.
    package static func parseLocated(_ data: Data, maxDepth: Int = 64, json5: Bool = true, keyLineDepth: Int = 2) throws
        -> (value: JSONValue, keyLines: [String: Int])
    {
        let bytes = [UInt8](data)
        if let offset = UTF8Validation.firstInvalidByte(bytes) {
            throw JSONParseError(message: "not valid UTF-8 (byte \(offset))")
        }
        let (value, lines) = try JSONParser.parse(
            bytes, options: JSONParser.Options(json5: json5, maxDepth: maxDepth, keyLineDepth: keyLineDepth))
        return (value, lines)
    }
}

/// Writes JSON container by container to a sink, byte for byte as `JSONValue.serialized()` (two-space indent)
/// writes the whole value: for reports too large to build whole. Containers are opened and closed here; each
/// value inside is serialized on its own.
package final class JSONStreamWriter {
    private let sink: OutputSink
    /// Per open container: how many members or elements it has so far, and its closing character.
    private var open: [(count: Int, close: String)] = []

    package init(sink: OutputSink) { self.sink = sink }

    private func prefix(_ key: String?) {
        guard !open.isEmpty else { return }
        sink.write(open[open.count - 1].count == 0 ? "\n" : ",\n")
        open[open.count - 1].count += 1
        sink.write(String(repeating: " ", count: 2 * open.count))
        if let key {
            var out: [UInt8] = []
            JSONValue.writeString(key, to: &out)
            sink.write(bytes: out)
            sink.write(": ")
        }
    }

    package func beginObject(_ key: String? = nil) {
        prefix(key)
        sink.write("{")
        open.append((0, "}"))
    }

    package func beginArray(_ key: String? = nil) {
        prefix(key)
        sink.write("[")
        open.append((0, "]"))
    }

    package func member(_ key: String, _ value: JSONValue) { write(key, value) }

    package func element(_ value: JSONValue) { write(nil, value) }

    private func write(_ key: String?, _ value: JSONValue) {
        prefix(key)
        var out: [UInt8] = []
        value.write(to: &out, level: open.count, indent: 2)
        sink.write(bytes: out)
    }

    package func end() {
        guard let (count, close) = open.popLast() else { return }
        if count > 0 { sink.write("\n" + String(repeating: " ", count: 2 * open.count)) }
        sink.write(close)
        if open.isEmpty { sink.write("\n") }
    }
}

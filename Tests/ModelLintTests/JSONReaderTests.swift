import Foundation
import XCTest
#if canImport(FoundationXML)
    import FoundationXML
#endif
import ModelLintSupport
import ModelLintModel
import ModelLintDiff
import ModelLintHistory
import ModelLintCompiled
import ModelLintStores
import ModelLintProjects
import ModelLintRules
import ModelLintEngine
import ModelLintReporting
import ModelLintCommands
import ModelLintGather

/// Hostile JSON, and the JSON reader behind every configuration, lock and baseline file.
final class JSONReaderTests: XCTestCase {
    func testDuplicateKeysAreAConfigurationErrorNamingTheKey() throws {
        let directory = try makeTemporaryDirectory(self)
        try writeBundle(in: directory, versions: [("Near 1", "<entity name=\"A\"/>")], current: "Near 1")
        try Data(
            "{\n  \"rules\": {\n    \"missing-inverse\": \"off\",\n    \"missing-inverse\": \"error\"\n  }\n}\n".utf8
        ).write(to: directory.appendingPathComponent(".modellint.json"))
        let out = modellint(["check"], in: directory)
        XCTAssertEqual(out.exitCode, 2)
        XCTAssertTrue(
            out.standardError.hasSuffix(
                ".modellint.json: not valid JSON: the key \"missing-inverse\" appears twice in one object (rules.missing-inverse) at line 4, column 5\n"
            ), out.standardError)
    }

    func testKeysDifferingOnlyInNormalizationAreTwoKeys() throws {
        // "é" precomposed and decomposed: canonically equal Strings, different bytes, so two keys to a JSON reader.
        let value = try JSONValue.parse(Data("{ \"caf\u{E9}\": 1, \"cafe\u{301}\": 2 }".utf8))
        XCTAssertEqual(value.objectValue?.count, 2)
        // The same in an object past 16 keys, where keys are looked up in sets; an exact repeat is still refused,
        // ASCII or not, escaped or not.
        let many = (0..<20).map { "\"k\($0)\": \($0)" }.joined(separator: ", ")
        let large = try JSONValue.parse(Data("{ \(many), \"caf\u{E9}\": 1, \"cafe\u{301}\": 2 }".utf8))
        XCTAssertEqual(large.objectValue?.count, 22)
        for repeated in ["\"k3\": 0", "\"caf\u{E9}\": 0", "\"k\\u0033\": 0", "\"cafe\u{301}\": 0"] {
            XCTAssertThrowsError(
                try JSONValue.parse(Data("{ \(many), \"caf\u{E9}\": 1, \"cafe\u{301}\": 2, \(repeated) }".utf8)),
                repeated
            ) { XCTAssertTrue("\($0)".contains("appears twice in one object"), "\($0)") }
        }
    }

    /// A string read in one piece (no escape) and one read through its escapes are the same string.
    func testStringsWithAndWithoutEscapesReadAlike() throws {
        let value = try JSONValue.parse(
            Data(#"{ "plain": "caf\#u{E9} \#u{1F600}", "escaped": "caf\u00e9 \ud83d\ude00", "tail": "a\\b" }"#.utf8))
        XCTAssertEqual(value["plain"]?.stringValue, "caf\u{E9} \u{1F600}")
        XCTAssertEqual(value["escaped"]?.stringValue, "caf\u{E9} \u{1F600}")
        XCTAssertEqual(value["tail"]?.stringValue, "a\\b")
    }

    func testSyntaxErrorsSayWhere() {
        for (text, expected) in [
            ("{\n  \"a\": 1,\n  \"b\" 2\n}", "':' is expected after the key \"b\" at line 3, column 7"),
            ("{ \"a\": [1, 2 }", "',' or ']' is expected at line 1, column 14"),
            ("{ \"a\": tru }", "an unknown word at line 1, column 8"),
            ("{ \"a\": \"x\n\" }", "a line break inside a string at line 1, column 10"),
            ("", "the file holds no value at line 1, column 1"),
        ] {
            XCTAssertThrowsError(try JSONValue.parse(Data(text.utf8))) { error in
                XCTAssertTrue("\(error)".hasSuffix(expected), "\(text.debugDescription): \(error)")
            }
        }
    }

    func testJSON5AndStrictJSON() throws {
        let json5 = "{ // comment\n unquoted: 'single', hex: 0x1F, half: .5, plus: +1, list: [1, 2,], /* block */ }"
        let value = try JSONValue.parse(Data(json5.utf8))
        XCTAssertEqual(value["unquoted"], .string("single"))
        XCTAssertEqual(value["hex"], .number(31))
        XCTAssertEqual(value["half"], .number(0.5))
        XCTAssertEqual(value["plus"], .number(1))
        XCTAssertEqual(value["list"], .array([.number(1), .number(2)]))
        XCTAssertEqual(value.objectValue?.map(\.0), ["unquoted", "hex", "half", "plus", "list"], "file order")
        XCTAssertThrowsError(try JSONValue.parse(Data("{ \"a\": 1, }".utf8), json5: false))
        XCTAssertThrowsError(try JSONValue.parse(Data("{ \"a\": 01 }".utf8), json5: false))
        XCTAssertEqual(try JSONValue.parse(Data("\"\\ud83d\\ude00\"".utf8)), .string("😀"))
        XCTAssertThrowsError(try JSONValue.parse(Data("\"\\ud83d\"".utf8)))
    }

    /// The streamed reader (baselines) reads a string's plain runs a machine word at a time: every escape, quote
    /// and non-ASCII byte at every offset in a word and across every chunk boundary reads as Foundation's own JSON
    /// reader reads it, and a raw control character is refused with its line.
    func testTheStreamedReaderReadsStringsAsFoundationDoesAtEveryOffsetAndChunkBoundary() throws {
        let pieces = [
            "a", "\\\"", "\\\\", "\\n", "\\u001f", "\\ud83d\\ude00", "\u{E9}", "/", "\\/", "\u{1F600}", "0123456",
        ]
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var objects: [String] = []
        for i in 0..<300 {
            let value = (0..<next(12)).map { _ in pieces[next(pieces.count)] }.joined()
            let other = String(repeating: "x", count: i % 17)
            objects.append(
                "{\"skip\": [1, {\"n\": \"\\\"\"}], \"key\": \"\(other)\(value)\", \"n\": -1.5e3, \"pad\": \"\(other)\"}"
            )
        }
        let text = "{\"findings\": [\n" + objects.joined(separator: ",\n") + "\n]}\n"
        let directory = try makeTemporaryDirectory(self)
        let file = directory.appendingPathComponent("base.json")
        try Data(text.utf8).write(to: file)
        let expected = try XCTUnwrap(
            (JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])?["findings"] as? [[String: Any]])
        for chunk in [3, 8, 13, 64, 256 * 1024] {
            let reader = try JSONStreamReader(path: file.path, limit: 1 << 20, chunkSize: chunk)
            var read: [[String]] = []
            try reader.object { key in
                XCTAssertEqual(key, "findings")
                try reader.array {
                    let mask = try reader.flatObject(names: [Array("key".utf8), Array("pad".utf8)])
                    XCTAssertEqual(mask, 3)
                    read.append((0..<2).map { String(decoding: reader.field($0), as: UTF8.self) })
                }
            }
            XCTAssertEqual(read.count, 300)
            for (i, fields) in read.enumerated() {
                XCTAssertEqual(fields[0], expected[i]["key"] as? String, "chunk \(chunk), object \(i)")
                XCTAssertEqual(fields[1], expected[i]["pad"] as? String, "chunk \(chunk), object \(i)")
            }
        }
        for offset in 0..<9 {
            try Data("{\"a\":\n\"\(String(repeating: "y", count: offset))\u{1}z\"}".utf8).write(to: file)
            let reader = try JSONStreamReader(path: file.path, limit: 1 << 20)
            XCTAssertThrowsError(try reader.object { _ in _ = try reader.stringIfPresent() }) { error in
                XCTAssertEqual("\(error)", "line 2: a control character in a string", "offset \(offset)")
            }
        }
    }
}

import Foundation
import XCTest
import ModelLintRules
import ModelLintSwiftData

/// The Swift declaration scanner: its tokens for every literal form, its declarations compared with the compiler's
/// own parser, and its behaviour on files built to break it.
final class SwiftScannerTests: XCTestCase {
    func tokens(_ source: String) -> [SwiftToken] { SwiftLexer.tokens(Array(source.utf8)) }

    func summary(_ source: String) -> [String] {
        tokens(source).map { t in
            switch t.kind {
            case .identifier: return t.text
            case .number: return "#" + t.text
            case .string: return "\"\(t.text)\""
            case .otherString: return "S"
            case .regex: return "R"
            case .attribute: return "@" + t.text
            case .pound: return "#" + t.text
            case .punctuation: return t.text
            }
        }
    }

    func testStringLiteralsOfEveryFormAreOneTokenEach() {
        XCTAssertEqual(summary(#"let a = "plain""#), ["let", "a", "=", "\"plain\""])
        // Interpolation holding a literal with a parenthesis and a quote, and a nested interpolation.
        XCTAssertEqual(summary(#"x = "a \(f(")", "\(g("}"))")) b"; y"#), ["x", "=", "S", ";", "y"])
        // Raw strings: a quote and a backslash inside, a `\#(` interpolation.
        XCTAssertEqual(summary(##"x = #"say "hi" \(not) \#(yes("\""))"# + z"##), ["x", "=", "S", "+", "z"])
        // A multi-line literal with quotes and `"""` inside an interpolation.
        XCTAssertEqual(
            summary("x = \"\"\"\n  \"quoted\" \\(f(\"\"\"\n inner\n \"\"\"))\n  \"\"\"\nvar y = 1"),
            ["x", "=", "S", "var", "y", "=", "#1"])
        // Lines are counted inside multi-line literals.
        let t = tokens("x = \"\"\"\nA\nB\n\"\"\"\nvar y")
        XCTAssertEqual(t.map(\.text).suffix(2), ["var", "y"])
        XCTAssertEqual(t.last?.line, 5)
        XCTAssertEqual(t.map(\.startsLine).suffix(2), [true, false])
    }

    func testCommentsRegexesAndNumbers() {
        XCTAssertEqual(summary("a /* b /* nested */ c */ d // e\nf"), ["a", "d", "f"])
        XCTAssertEqual(
            summary("let r = /[a-z]+\\/x/\nlet q = a / b / c"),
            ["let", "r", "=", "R", "let", "q", "=", "a", "/", "b", "/", "c"])
        XCTAssertEqual(summary("let r = #/a/b/#; x"), ["let", "r", "=", "R", ";", "x"])
        XCTAssertEqual(summary("0x1F 1_000 2.5e-3 0...3"), ["#0x1F", "#1_000", "#2.5e-3", "#0", ".", ".", ".", "#3"])
        XCTAssertEqual(
            summary("@Attribute(.unique) #Unique<T>([\\.a]) `default` $0"),
            [
                "@Attribute", "(", ".", "unique", ")", "#Unique", "<", "T", ">", "(", "[", "\\", ".", "a", "]", ")",
                "default", "$0",
            ])
    }

    /// Swift ends a line at LF, CR and CRLF: a `//` comment ends there, and lines are counted the same way in code,
    /// block comments and multi-line literals. A backtick name may be of any length; an unclosed backtick on a long
    /// line is read once.
    func testLinesEndAsSwiftsLexerEndsThem() {
        // `// note<CR>var streak: Int`: the property is code (swiftc -dump-parse shows it).
        XCTAssertEqual(summary("// note\rvar streak: Int"), ["var", "streak", ":", "Int"])
        XCTAssertEqual(summary("// note\r\nvar streak: Int"), ["var", "streak", ":", "Int"])
        let t = tokens("a\rb\r\nc\n/* x\r y */d\r\"\"\"\rq\r\"\"\"\re")
        XCTAssertEqual(t.map(\.text), ["a", "b", "c", "d", "", "e"])
        XCTAssertEqual(t.map(\.line), [1, 2, 3, 5, 6, 9])
        XCTAssertEqual(t.map(\.startsLine), [true, true, true, true, true, true])
        // A single-line literal ends at a lone CR too.
        XCTAssertEqual(summary("x = \"open\rvar y"), ["x", "=", "S", "var", "y"])
        let long = String(repeating: "n", count: 5_000)
        XCTAssertEqual(summary("var `\(long)`: Int"), ["var", long, ":", "Int"])
        XCTAssertEqual(summary("`a\rb`"), ["`", "a", "b", "`"])
    }

    /// End to end: a model whose property follows a comment ended by a lone CR hashes as the same model with LF.
    func testAPropertyAfterACommentEndedByCRIsPartOfTheModel() throws {
        func hashes(_ lineBreak: String) throws -> String {
            let folder = try makeTemporaryDirectory(self)
            let source =
                "import SwiftData\n@Model final class Item {\n    var title: String = \"\"\n    // note\(lineBreak)var streak: Int\n    init() {}\n}\n"
            try Data(source.utf8).write(to: folder.appendingPathComponent("Models.swift"))
            let out = modellint(["hashes", ".", "--format", "json"], in: folder)
            XCTAssertEqual(out.exitCode, 0, out.standardError)
            return out.standardOutput
        }
        let withLF = try hashes("\n")
        XCTAssertEqual(try hashes("\r"), withLF)
        XCTAssertEqual(try hashes("\r\n"), withLF)
        XCTAssertNotEqual(try hashes(" "), withLF, "with the property commented out, the model differs")
    }

    func testDeclarationsWithAttributesTypesInitializersAndConditions() {
        let source = """
            @Model final class Item: Base, Codable {
                @Attribute(.unique) var name: String = "x"
                var tags: [Tag] = [], count = 0
                var computed: Int { count * 2 }
                var observed: Int = 0 {
                    didSet { print(observed) }
                }
                #if DEBUG
                var debugOnly: Bool?
                #else
                var releaseOnly: Bool?
                #endif
                static let shared = Item()
                init() {}
                #Unique<Item>([\\.name])
            }
            extension V1.Item { func f() {} }
            typealias Current = V2.Item
            """
        let file = SwiftSourceFile(path: "F.swift", bytes: Array(source.utf8))
        XCTAssertEqual(file.declarations.map(\.name), ["Item", "V1.Item", "Current"])
        let item = file.declarations[0]
        XCTAssertEqual(item.kind, .class)
        XCTAssertEqual(item.attributes.map(\.name), ["Model"])
        XCTAssertEqual(item.modifiers, ["final"])
        XCTAssertEqual(item.inherited, ["Base", "Codable"])
        XCTAssertEqual(
            item.members.map { "\($0.kind.rawValue) \($0.name) \($0.line)" },
            [
                "var name 2", "var tags 3", "var count 3", "var computed 4", "var observed 5", "var debugOnly 9",
                "var releaseOnly 11", "let shared 13", "initializer init 14", "macro Unique 15",
            ])
        let name = item.members[0]
        XCTAssertEqual(file.text(name.type!), "String")
        XCTAssertEqual(file.text(name.initializer!), "\"x\"")
        XCTAssertEqual(name.attributes.map(\.name), ["Attribute"])
        XCTAssertEqual(file.text(item.members[1].type!), "[Tag]")
        XCTAssertEqual(file.text(item.members[2].initializer!), "0")
        XCTAssertNotNil(item.members[3].body)
        XCTAssertEqual(item.members[5].conditions.texts, ["DEBUG"])
        XCTAssertEqual(item.members[6].conditions.texts, ["!(DEBUG)"])
        XCTAssertTrue(item.members[7].isStatic)
        XCTAssertEqual(file.text(item.members[9].type!), "Item")
        XCTAssertEqual(file.declarations[1].kind, .extension)
        XCTAssertEqual(file.text(file.declarations[2].type!), "V2.Item")
    }

    /// Files built to break a scanner: each is read to its end, in one pass, without a crash.
    func testHostileFilesEndWithoutCrashOrHang() {
        let nested = String(repeating: "class A { ", count: 10_000) + String(repeating: "}", count: 10_000)
        let deep = SwiftSourceFile(path: "Nested.swift", bytes: Array(nested.utf8))
        XCTAssertEqual(deep.declarations.count, 1)
        // Type bodies deeper than the parser reads are skipped whole: the nesting it keeps is bounded.
        var depth = 0
        var current = deep.declarations.first
        while let d = current {
            depth += 1
            current = d.members.first
        }
        XCTAssertEqual(depth, 64)
        let braces = String(repeating: "{", count: 100_000)
        XCTAssertEqual(SwiftSourceFile(path: "B.swift", bytes: Array(braces.utf8)).declarations.count, 0)
        let unterminated = [
            "let s = \"never closed\nvar x = 1", "let s = \"\"\"\nnever closed", "let s = #\"raw",
            "let s = \"\\(f(\"x\"", "/* never closed", "let r = #/never", "@", "#", "`", "class", "var x: ",
            "enum V: VersionedSchema { static var models: [any PersistentModel.Type] { [",
        ]
        for source in unterminated {
            _ = SwiftSourceFile(path: "U.swift", bytes: Array(source.utf8))
        }
        // The single-line literal ends at its line: the next line is read.
        let recovered = SwiftSourceFile(path: "U.swift", bytes: Array("let s = \"open\nvar x = 1".utf8))
        XCTAssertEqual(recovered.declarations.map(\.name), ["s", "x"])
        // Invalid UTF-8 in names and literals is read as replacement characters.
        let invalid: [UInt8] =
            Array("@Model final class ".utf8) + [0xFF, 0xC3] + Array(" { var n: String = \"".utf8)
            + [0xFE] + Array("\" }".utf8)
        let file = SwiftSourceFile(path: "I.swift", bytes: invalid)
        XCTAssertEqual(file.declarations.count, 1)
        XCTAssertEqual(file.declarations[0].members.map(\.name), ["n"])
        // Random bytes of every value.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            let bytes = (0..<2_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
            _ = SwiftSourceFile(path: "R.swift", bytes: bytes)
        }
    }

    func testOnlyFilesThatMentionSwiftDataAreParsed() {
        XCTAssertTrue(SwiftDataReader.mentionsSwiftData(Array("@Model final class A {}".utf8)))
        XCTAssertTrue(SwiftDataReader.mentionsSwiftData(Array("enum V: VersionedSchema {}".utf8)))
        XCTAssertFalse(SwiftDataReader.mentionsSwiftData(Array("struct ContentView: View {}".utf8)))
    }

    // MARK: The compiler's parser as an oracle

    /// Every fixture file and every rule example's Swift file: the scanner's types and properties (nesting, lines,
    /// static or not) equal what `swiftc -dump-parse` prints, outside `#if` regions (which it does not print).
    func testDeclarationsMatchTheCompilersParser() throws {
        guard let swiftc = Self.swiftc() else { throw XCTSkip("swiftc is not on this machine") }
        let directory = try makeTemporaryDirectory(self)
        var files: [URL] = []
        let fixtures = repositoryRoot.appendingPathComponent("Fixtures/SwiftData")
        let walker = FileManager.default.enumerator(at: fixtures, includingPropertiesForKeys: nil)
        while let url = walker?.nextObject() as? URL {
            if url.pathExtension == "swift" { files.append(url) }
        }
        for rule in RuleRegistry.descriptions {
            for (e, example) in rule.examples.enumerated() {
                let sides = [("", example.swiftFiles), ("shipped-", example.shippedSwiftFiles)]
                for (side, sideFiles) in sides {
                    for (name, text) in sideFiles where name.hasSuffix(".swift") {
                        let url = directory.appendingPathComponent("\(rule.id)-\(e)-\(side)\(name)")
                        try Data(text.filter { $0 != RuleExample.marker }.utf8).write(to: url)
                        files.append(url)
                    }
                }
            }
        }
        XCTAssertGreaterThan(files.count, 20)
        var empty = 0
        let oracles = try Self.compilerOutlines(of: files, swiftc: swiftc)
        XCTAssertEqual(oracles.count, files.count)
        for url in files {
            let bytes = [UInt8](try Data(contentsOf: url))
            let scanned = Self.scannerOutline(SwiftSourceFile(path: url.path, bytes: bytes))
            let oracle = oracles[url.path] ?? ["the compiler printed nothing for this file"]
            if oracle.isEmpty { empty += 1 }
            XCTAssertEqual(scanned, oracle, url.lastPathComponent)
        }
        // A file of functions alone has nothing to compare; nearly every file has types and properties.
        XCTAssertLessThan(empty, 3)
    }

    static func swiftc() -> URL? {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let url = URL(fileURLWithPath: String(folder)).appendingPathComponent("swiftc")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return nil
    }

    /// "kind path line" per type, "var path line [static]" per property.
    static func scannerOutline(_ file: SwiftSourceFile) -> [String] {
        var lines: [String] = []
        func walk(_ declarations: [SwiftDeclaration], path: String) {
            for d in declarations where d.conditions.isEmpty {
                let name = path.isEmpty ? d.name : path + "." + d.name
                switch d.kind {
                case .class, .struct, .enum, .protocol, .extension, .actor:
                    lines.append("\(d.kind.rawValue) \(name) \(d.line)")
                    walk(d.members, path: name)
                case .var, .let:
                    lines.append("var \(name) \(d.line)\(d.isStatic ? " static" : "")")
                default: break
                }
            }
        }
        walk(file.declarations, path: "")
        return lines
    }

    /// Each file's outline by its path, from a few runs of the compiler's driver: batch mode parses a run's
    /// files in a few frontend processes rather than one each (a file's dump starts at `(source_file "path"`). The driver refuses two files of one name in a run, so each run has one of each.
    static func compilerOutlines(of urls: [URL], swiftc: URL) throws -> [String: [String]] {
        var runs: [[URL]] = []
        for url in urls {
            if let run = runs.firstIndex(where: { !$0.contains { $0.lastPathComponent == url.lastPathComponent } }) {
                runs[run].append(url)
            } else {
                runs.append([url])
            }
        }
        var outlines: [String: [String]] = [:]
        for run in runs {
            outlines.merge(try compilerOutlinesOfOneRun(run, swiftc: swiftc)) { first, _ in first }
        }
        return outlines
    }

    static func compilerOutlinesOfOneRun(_ urls: [URL], swiftc: URL) throws -> [String: [String]] {
        let process = Process()
        process.executableURL = swiftc
        process.arguments = ["-dump-parse", "-enable-batch-mode"] + urls.map(\.path)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let header = "(source_file \""
        var dumps: [String: [Substring]] = [:]
        var current: String?
        // Batch mode writes one file's dump straight after the last one's closing parenthesis.
        let text = String(decoding: data, as: UTF8.self).replacingOccurrences(of: header, with: "\n" + header)
        for line in text.split(separator: "\n") {
            if line.hasPrefix(header) {
                let path = String(line.dropFirst(header.count).prefix { $0 != "\"" })
                current = path
                dumps[path, default: []].append(line)
            } else if let current {
                dumps[current]?.append(line)
            }
        }
        return dumps.mapValues { compilerOutline(dump: $0) }
    }

    static func compilerOutline(dump: [Substring]) -> [String] {
        let kinds = [
            "class_decl": "class", "struct_decl": "struct", "enum_decl": "enum", "protocol": "protocol",
            "extension_decl": "extension", "var_decl": "var",
        ]
        var lines: [String] = []
        // Open nodes: indentation, and the type path when the node is a type (nil for any other node).
        var stack: [(indent: Int, path: String?)] = []
        for line in dump {
            let indent = line.prefix { $0 == " " }.count
            let rest = line.dropFirst(indent)
            guard rest.hasPrefix("(") else { continue }
            while let top = stack.last, top.indent >= indent { stack.removeLast() }
            let node = String(rest.dropFirst().prefix { $0 != " " && $0 != ")" })
            let parentPath = stack.last.map { $0.path } ?? ""
            guard let kind = kinds[node], let parent = parentPath,
                let lineRange = rest.range(of: "range=["),
                let nameStart = rest.range(of: " \"", range: lineRange.upperBound..<rest.endIndex)
            else {
                stack.append((indent, node == "source_file" ? "" : nil))
                continue
            }
            let position = rest[lineRange.upperBound...].split(separator: ":")
            let lineNumber = position.count > 1 ? String(position[1]) : "?"
            let name = String(rest[nameStart.upperBound...].prefix { $0 != "\"" })
            let path = parent.isEmpty ? name : parent + "." + name
            var kindName = kind
            if kind == "class", rest.contains("\" actor") || rest.hasSuffix(" actor") { kindName = "actor" }
            if kind == "var" {
                let flags = rest[nameStart.upperBound...].drop { $0 != "\"" }.dropFirst()
                lines.append("var \(path) \(lineNumber)\(flags.contains("static") ? " static" : "")")
                stack.append((indent, nil))
            } else {
                lines.append("\(kindName) \(path) \(lineNumber)")
                stack.append((indent, path))
            }
        }
        return lines
    }
}

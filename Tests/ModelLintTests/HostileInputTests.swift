import Foundation
import Testing
import ModelLintSupport
import ModelLintModel
import ModelLintDiff
import ModelLintHistory
import ModelLintCompiled
import ModelLintStores
import ModelLintProjects
import ModelLintSwiftData
import ModelLintRules
import ModelLintEngine
import ModelLintReporting
import ModelLintCommands
import ModelLintGather

/// Input built to hurt: each case gets a clear finding or error, finishes, and writes nothing.
@Suite struct HostileInputTests {
    let temporary = TemporaryDirectories()

    private func bundle(with contents: Data) throws -> URL {
        let directory = try temporary.make()
        let version = directory.appendingPathComponent("Hostile.xcdatamodeld/Hostile 1.xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        try contents.write(to: version.appendingPathComponent("contents"))
        return directory.appendingPathComponent("Hostile.xcdatamodeld")
    }

    private func only(_ diagnostics: [Diagnostic], file: StaticString = #filePath, line: UInt = #line) -> Diagnostic? {
        #expect(diagnostics.count == 1, Comment(rawValue: diagnostics.map(\.message).joined(separator: "\n")))
        return diagnostics.first
    }

    @Test func testBillionLaughsIsRefusedBeforeExpansion() throws {
        var dtd = "<!DOCTYPE model [\n<!ENTITY lol \"lol\">\n"
        for level in 1...9 {
            dtd +=
                "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level == 1 ? "" : String(level - 1));", count: 10)
                + "\">\n"
        }
        let text = "<?xml version=\"1.0\"?>\n" + dtd + "]>\n<model><entity name=\"&lol9;\"/></model>\n"
        let found = only(lint(try bundle(with: Data(text.utf8))))
        #expect(found?.ruleId == "malformed-contents")
        #expect(found?.line == 2)
        #expect(found?.message.contains("it declares a DTD or entities (<!DOCTYPE)") == true)
    }

    @Test func testExternalEntityIsNeverResolved() throws {
        let secret = try temporary.make().appendingPathComponent("secret.txt")
        try Data("TOP-SECRET-VALUE".utf8).write(to: secret)
        let text =
            "<?xml version=\"1.0\"?>\n<!DOCTYPE model [<!ENTITY xxe SYSTEM \"file://\(secret.path)\">]>\n<model><entity name=\"&xxe;\"/></model>\n"
        let url = try bundle(with: Data(text.utf8))
        let out = modellint(["check", url.path, "--format", "json"], in: url.deletingLastPathComponent())
        #expect(!out.standardOutput.contains("TOP-SECRET-VALUE"))
        #expect(out.standardOutput.contains("\"ruleId\": \"malformed-contents\""))
        // Entities without a DTD (an undeclared reference) are an XML error, not a lookup.
        let undeclared = only(
            lint(try bundle(with: Data("<?xml version=\"1.0\"?>\n<model><entity name=\"&xxe;\"/></model>\n".utf8))))
        #expect(undeclared?.ruleId == "malformed-contents")
    }

    @Test func testFiftyMegabyteContents() throws {
        var text = RuleExample.modelHeader + "\n"
        let entity =
            "<entity name=\"E%d\"><attribute name=\"a\" optional=\"YES\" attributeType=\"String\"/></entity><!-- "
            + String(repeating: "p", count: 8_000) + " -->\n"
        var i = 0
        while text.utf8.count < 50_000_000 {
            text += entity.replacingOccurrences(of: "%d", with: String(i))
            i += 1
        }
        text += "</model>\n"
        let found = lint(try bundle(with: Data(text.utf8)))
        #expect(found.map(\.ruleId) == [], "a big but valid model is read whole")
    }

    @Test func testTenThousandEntities() throws {
        var text = RuleExample.modelHeader + "\n"
        for i in 0..<10_000 {
            text +=
                "<entity name=\"Entity\(i)x\"><attribute name=\"a\" optional=\"YES\" attributeType=\"String\"/><relationship name=\"next\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"Entity\((i + 1) % 10_000)x\" inverseName=\"previous\" inverseEntity=\"Entity\((i + 1) % 10_000)x\"/><relationship name=\"previous\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"Entity\((i + 9_999) % 10_000)x\" inverseName=\"next\" inverseEntity=\"Entity\((i + 9_999) % 10_000)x\"/></entity>\n"
        }
        text += "</model>\n"
        let url = try bundle(with: Data(text.utf8))
        #expect(lint(url).map(\.ruleId) == [])
        let loaded = BundleLoader.load(bundleURL: url, displayPath: "H")
        #expect(loaded.versions.first?.model?.entities.count == 10_000)
    }

    @Test func testMegabyteAttributeValues() throws {
        let huge = String(repeating: "x", count: 1_000_000)
        let text =
            RuleExample.modelHeader
            + "\n<entity name=\"Thing\"><attribute name=\"\(huge)\" optional=\"YES\" attributeType=\"String\" defaultValueString=\"\(huge)\"/></entity>\n</model>\n"
        let found = lint(try bundle(with: Data(text.utf8)))
        #expect(found.map(\.ruleId) == [])
        let loaded = BundleLoader.load(bundleURL: try bundle(with: Data(text.utf8)), displayPath: "H")
        #expect(loaded.versions.first?.model?.entities.first?.attributes.first?.name.count == 1_000_000)
    }

    @Test func testDeeplyNestedElements() throws {
        let depth = 100_000
        let text =
            RuleExample.modelHeader + "\n<entity name=\"Thing\">" + String(repeating: "<x>", count: depth)
            + String(repeating: "</x>", count: depth) + "</entity>\n</model>\n"
        let found = lint(try bundle(with: Data(text.utf8)))
        // libxml2 refuses the depth (malformed-contents), or the unknown element is reported once: never a crash.
        #expect(found.count == 1)
        #expect(
            ["malformed-contents", "unknown-xml-attribute"].contains(found.first?.ruleId ?? ""),
            Comment(rawValue: found.first?.message ?? ""))
    }

    @Test func testNULBytesAndInvalidUTF8() throws {
        for bytes in [
            Array("<model>\u{0}</model>".utf8),
            [0x3C, 0x6D, 0x6F, 0x64, 0x65, 0x6C, 0x20, 0x61, 0x3D, 0x22, 0xC3, 0x28, 0x22, 0x2F, 0x3E],
        ] {
            #expect(only(lint(try bundle(with: Data(bytes))))?.ruleId == "malformed-contents")
        }
    }

    @Test func testDeeplyNestedLockFileIsAConfigurationError() throws {
        let directory = try temporary.make()
        try writeBundle(in: directory, versions: [("Near 1", "<entity name=\"A\"/>")], current: "Near 1")
        try Data((String(repeating: "{\"a\":", count: 1_000) + "1" + String(repeating: "}", count: 1_000)).utf8).write(
            to: directory.appendingPathComponent("modellint.lock"))
        let out = modellint(["check"], in: directory)
        #expect(out.exitCode == 2)
        #expect(out.standardError.contains("nested more than 64 levels deep"), Comment(rawValue: out.standardError))
    }
}

/// Only `lock` and `new-version` may write into a model bundle; every other command leaves it byte for byte,
/// timestamp for timestamp, as it was.
@Suite struct ReadOnlyTests {
    let temporary = TemporaryDirectories()

    private func snapshot(_ root: URL) throws -> [String: String] {
        var result: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)!
        for case let url as URL in enumerator {
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? -1
            let bytes = (try? Data(contentsOf: url)).map { SHA256.hex([UInt8]($0)) } ?? "directory"
            result[PathTools.relative(url.path, to: root.path) ?? url.path] = "\(bytes) \(modified)"
        }
        return result
    }

    @Test func testNoCommandButLockAndNewVersionWritesToTheBundle() throws {
        let directory = try temporary.make()
        let fixtures = repositoryRoot.appendingPathComponent("Fixtures")
        for name in ["Near.xcdatamodeld", "Changes/TypeReused.xcdatamodeld", "Mapped"] {
            try FileManager.default.copyItem(
                at: fixtures.appendingPathComponent(name),
                to: directory.appendingPathComponent((name as NSString).lastPathComponent))
        }
        #expect(modellint(["lock", "--lock", "shipped.lock"], in: directory).exitCode == 0)
        let before = try snapshot(directory)
        let outside = try temporary.make()
        let commands: [[String]] = [
            ["check"], ["check", "--format", "json"], ["check", "--format", "sarif"], ["check", "--format", "github"],
            ["check", "--format", "junit"], ["check", "--format", "checkstyle"],
            ["check", "--strict", "--quiet", "--no-color"],
            ["check", "--lock", "shipped.lock"], ["check", "--migration", "progressive"],
            ["check", "--output", outside.appendingPathComponent("report.txt").path],
            ["check", "--write-baseline", outside.appendingPathComponent("baseline.json").path],
            ["check", "--baseline", outside.appendingPathComponent("baseline.json").path],
            ["check", "Near.xcdatamodeld/Near 19.xcdatamodel/contents"],
            ["diff", "Near.xcdatamodeld"], ["diff", "TypeReused.xcdatamodeld", "Near 1", "Near 3", "--format", "json"],
            ["rules"], ["rules", "--format", "markdown"], ["explain", "skip-version-upgrade"], ["--version"],
            ["--help"],
            ["check", "--help"], ["diff", "--help"], ["lock", "--help"], ["new-version", "--help"],
        ]
        for command in commands {
            let out = modellint(command, in: directory)
            #expect(out.exitCode != 3, Comment(rawValue: command.joined(separator: " ")))
        }
        try #expect(snapshot(directory) == before)
    }
}

/// Every input the fuzzer ever crashed on (Fuzz/regressions): each must now be a finding, not a crash, or
/// (for the differential check) parse the same with and without the entity cache.
@Suite struct FuzzRegressionTests {
    @Test func testEveryFuzzCrashIsNowAFinding() throws {
        let folder = repositoryRoot.appendingPathComponent("Fuzz/regressions")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(!names.isEmpty)
        for name in names {
            let data = try Data(contentsOf: folder.appendingPathComponent(name))
            if name.hasPrefix("json-") {
                do {
                    _ = try JSONValue.parse(data)
                    Issue.record(Comment(rawValue: name))
                } catch {
                    #expect("\(error)".hasPrefix("not valid UTF-8"), "\(name): \(error)")
                }
                continue
            }
            if name.hasPrefix("xccurrentversion-") {
                // A binary plist whose set holds a dictionary: Foundation's bridging dereferenced null on Linux.
                // Read as a pointer file, it is now simply not one.
                let (file, declared) = CurrentVersionReader.parse(data)
                #expect(declared == nil, Comment(rawValue: name))
                #expect(file == .empty, "\(name): \(file)")
                #expect((try? PropertyList.parse(data)) != nil, "\(name): our reader reads it (sets become arrays)")
                continue
            }
            if name.hasPrefix("swift-") {
                // Swift files, a form feed between them (as the fuzzer splits its input): a plan's stage declared
                // in an extension in another file was read with the plan's file's tokens, out of range.
                let files = [UInt8](data).split(separator: 0x0C, omittingEmptySubsequences: false).enumerated().map {
                    SwiftSourceFile(path: "fuzz/F\($0.offset).swift", bytes: Array($0.element))
                }
                let sets = SwiftDataReader.schemaSets(files, moduleName: "Fuzz")
                #expect(sets.map(\.name) == ["ShelfPlan"], Comment(rawValue: name))
                #expect(
                    sets.first?.stages.map { "\($0.kind) \($0.from ?? "") \($0.to ?? "") \($0.location.file)" }
                        == ["custom ShelfV1 ShelfV2 fuzz/F1.swift"], Comment(rawValue: name))
                continue
            }
            if name.hasPrefix("contents-blanked-repeat") {
                // Found by the differential check: parsed again with its own entities cached (every repeat
                // blanked), the file must give what it gives alone.
                let cache = EntitySourceCache()
                _ = ContentsParser.parse(data: data, path: name, cache: cache)
                guard case .model(let alone) = ContentsParser.parse(data: data, path: name),
                    case .model(let blanked) = ContentsParser.parse(data: data, path: name, cache: cache)
                else {
                    Issue.record("\(name) no longer reads as a model")
                    continue
                }
                #expect(alone.entities == blanked.entities, Comment(rawValue: name))
                #expect(alone.unknownXML == blanked.unknownXML, Comment(rawValue: name))
                #expect(alone.entities.map(\.name) == ["Media", "Vss"], Comment(rawValue: name))
                #expect(alone.unknownXML.map(\.name).last == "model", "the nested model is an unknown element of Vss")
                continue
            }
            guard case .malformed(let reason, _) = ContentsParser.parse(data: data, path: name) else {
                Issue.record("\(name) no longer reads as malformed")
                continue
            }
            if name.hasPrefix("contents-invalid-utf8") {
                #expect(reason.hasPrefix("it is not valid UTF-8 (byte "), "\(name): \(reason)")
            }
            if name.hasPrefix("contents-processing-instruction") {
                #expect(
                    reason
                        == "it contains a processing instruction (<?…?>) other than the XML declaration; Xcode never writes one"
                )
            }
        }
    }

    @Test func testUTF8Validation() {
        #expect(UTF8Validation.firstInvalidByte(Array("plain ascii, é, €, 𝄞".utf8)) == nil)
        #expect(UTF8Validation.firstInvalidByte([0x61, 0xC3, 0x28]) == 1, "truncated two-byte sequence")
        #expect(UTF8Validation.firstInvalidByte([0xC0, 0xAF]) == 0, "overlong")
        #expect(UTF8Validation.firstInvalidByte([0xED, 0xA0, 0x80]) == 0, "surrogate")
        #expect(UTF8Validation.firstInvalidByte([0xF4, 0x90, 0x80, 0x80]) == 0, "above U+10FFFF")
        #expect(UTF8Validation.firstInvalidByte([0x61, 0xE2, 0x82]) == 1, "cut short at the end")
    }
}

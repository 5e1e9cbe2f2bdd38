import Foundation
import XCTest
import ModelLintSupport
import ModelLintModel
import ModelLintRepair
import ModelLintCommands

/// `modellint fix` on hand-written fixtures (Fixtures/Fix): the repaired bytes against a hand-written expected
/// file, the dry run's exact output, idempotence, and the refusals that leave every byte as it was.
final class FixTests: XCTestCase {
    private func copy(_ fixture: String) throws -> URL {
        let directory = try makeTemporaryDirectory(self)
        let source = repositoryRoot.appendingPathComponent("Fixtures/Fix/\(fixture)/Shop.xcdatamodeld")
        try FileManager.default.copyItem(at: source, to: directory.appendingPathComponent("Shop.xcdatamodeld"))
        return directory
    }

    private func bytes(_ url: URL) throws -> Data { try Data(contentsOf: url) }

    private func snapshot(_ directory: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
        while let url = walker?.nextObject() as? URL {
            if !url.hasDirectoryPath { files[url.path] = try Data(contentsOf: url) }
        }
        return files
    }

    private let shop2 = "Shop.xcdatamodeld/Shop 2.xcdatamodel/contents"

    func testDryRunPrintsTheDiffAndWritesNothing() throws {
        let directory = try copy("Respell")
        let before = try snapshot(directory)
        let out = modellint(["fix", "--dry-run"], in: directory)
        XCTAssertEqual(out.exitCode, 0, out.standardError)
        XCTAssertEqual(try snapshot(directory), before)
        let lines = out.standardOutput.components(separatedBy: "\n")
        XCTAssertEqual(lines[0], "--- a/\(shop2)")
        XCTAssertEqual(lines[1], "+++ b/\(shop2)")
        XCTAssertEqual(lines[2], "@@ -1,13 +1,13 @@")
        XCTAssertEqual(lines.filter { $0.hasPrefix("-  ") }.count, 7)
        XCTAssertEqual(lines.filter { $0.hasPrefix("+  ") }.count, 7)
        XCTAssertTrue(
            lines.contains(
                "+        <attribute name=\"author\" optional=\"YES\" attributeType=\"String\" elementID=\"writer\"/>"))
        XCTAssertEqual(
            lines.filter { $0.hasPrefix("would repair: ") },
            [
                "would repair: \(shop2):4: suspicious-default-value: Item.archived's default respelled in Shop 2 (\"false\" -> \"NO\")",
                "would repair: \(shop2):5: renaming-identifier-xml-attribute: Item.author in Shop 2: renamingIdentifier=\"writer\" -> elementID=\"writer\"",
                "would repair: \(shop2):6: suspicious-default-value: Item.count's default respelled in Shop 2 (\"0.0\" -> \"0\"); 1 shipped version keeps it",
                "would repair: \(shop2):7: suspicious-default-value: Item.flagged's default respelled in Shop 2 (\"YES\" -> \"1\", the value the editor showed; it read 0)",
                "would repair: \(shop2):8: suspicious-default-value: Item.hidden's default respelled in Shop 2 (\"NO\" -> \"0\")",
                "would repair: \(shop2):9: suspicious-default-value: Item.pinned's default respelled in Shop 2 (\"Yes\" -> \"YES\")",
                "would repair: \(shop2):10: suspicious-default-value: Item.score's default respelled in Shop 2 (\"NO\" -> \"0\")",
            ])
        XCTAssertEqual(
            lines[lines.count - 2],
            "would repair 7 findings in 1 file; 0 need a person; after: 0 errors, 0 warnings")
    }

    func testFixWritesTheExpectedBytesAndASecondRunChangesNothing() throws {
        let directory = try copy("Respell")
        let shipped = try bytes(directory.appendingPathComponent("Shop.xcdatamodeld/Shop 1.xcdatamodel/contents"))
        let checked = modellint(["check", "--format", "json"], in: directory)
        XCTAssertEqual(checked.exitCode, 1)
        let out = modellint(["fix"], in: directory)
        XCTAssertEqual(out.exitCode, 0, out.standardError)
        XCTAssertTrue(
            out.standardOutput.hasSuffix(
                "repaired 7 findings in 1 file; 0 need a person; after: 0 errors, 0 warnings\n"))
        let expected = try bytes(repositoryRoot.appendingPathComponent("Fixtures/Fix/Respell.expected/Shop 2.contents"))
        XCTAssertEqual(try bytes(directory.appendingPathComponent(shop2)), expected)
        // The shipped version is never touched: its finding stays, as a note.
        XCTAssertEqual(
            try bytes(directory.appendingPathComponent("Shop.xcdatamodeld/Shop 1.xcdatamodel/contents")), shipped)
        let after = modellint(["check", "--format", "json", "--notes"], in: directory)
        XCTAssertEqual(after.exitCode, 0, after.standardOutput)
        let report = try JSONSerialization.jsonObject(with: Data(after.standardOutput.utf8)) as! [String: Any]
        let findings = (report["diagnostics"] as! [[String: Any]]).map {
            "\($0["ruleId"]!) \($0["severity"]!) \($0["version"] ?? "-") \($0["message"]!)"
        }
        XCTAssertEqual(
            findings,
            [
                "suspicious-default-value note Shop 1 Item.count has a suspicious default: \"0.0\" is a fractional spelling on an Integer 32 attribute; write 0",
                // The rename now made through elementID: the reminder to verify the build keeps it.
                "renaming-id-reliance note Shop 2 Item.writer was renamed to author between Shop 1 and Shop 2 through its renaming identifier \"writer\": if the compiled model loses it, the data is dropped and author reads nil",
            ])
        let before = try snapshot(directory)
        let again = modellint(["fix"], in: directory)
        XCTAssertEqual(again.exitCode, 0)
        XCTAssertEqual(
            again.standardOutput, "repaired 0 findings in 0 files; 0 need a person; after: 0 errors, 0 warnings\n")
        XCTAssertEqual(try snapshot(directory), before)
    }

    func testOnlyLimitsTheRepairs() throws {
        let directory = try copy("Respell")
        let out = modellint(["fix", "--only", "renaming-identifier-xml-attribute"], in: directory)
        // The suspicious defaults are left: warnings, so the repaired tree still fails under --strict only.
        XCTAssertEqual(out.exitCode, 0, out.standardError)
        XCTAssertTrue(out.standardOutput.hasPrefix("repaired: \(shop2):5: renaming-identifier-xml-attribute: "))
        XCTAssertTrue(
            out.standardOutput.hasSuffix("repaired 1 finding in 1 file; 0 need a person; after: 0 errors, 5 warnings\n")
        )
        let text = String(decoding: try bytes(directory.appendingPathComponent(shop2)), as: UTF8.self)
        XCTAssertTrue(text.contains("elementID=\"writer\""))
        XCTAssertTrue(text.contains("defaultValueString=\"false\""))
        XCTAssertEqual(modellint(["fix", "--strict", "--dry-run"], in: directory).exitCode, 0)
        XCTAssertEqual(modellint(["check", "--strict"], in: directory).exitCode, 1)
    }

    func testUnknownOrUnrepairableRulesAreUsageErrors() throws {
        let directory = try copy("Respell")
        let unknown = modellint(["fix", "--only", "suspicious-default"], in: directory)
        XCTAssertEqual(unknown.exitCode, 2)
        XCTAssertTrue(unknown.standardError.contains("did you mean 'suspicious-default-value'?"), unknown.standardError)
        let unrepairable = modellint(["fix", "--only", "entity-removed"], in: directory)
        XCTAssertEqual(unrepairable.exitCode, 2)
        XCTAssertEqual(
            unrepairable.standardError,
            "modellint: fix has no repair for 'entity-removed'; 2 rules have one: suspicious-default-value, renaming-identifier-xml-attribute\n"
        )
    }

    /// A shipped version with the same hand-written attribute was compiled without it: converting would drop its
    /// stores' data, so the finding is left to a person and no byte changes.
    func testARenamingIdentifierThatShippedIsLeftToAPerson() throws {
        let directory = try copy("ShippedRenamingIdentifier")
        let before = try snapshot(directory)
        let out = modellint(["fix"], in: directory)
        XCTAssertEqual(out.exitCode, 0)
        XCTAssertEqual(
            out.standardOutput.components(separatedBy: "\n").first,
            "needs a person: Shop.xcdatamodeld/Shop 3.xcdatamodel/contents:4: renaming-identifier-xml-attribute: Shop 2 shipped with the same renamingIdentifier, which its build ignored: its stores know Book.author by its own name, and an elementID now would drop that data on every device that installed it"
        )
        XCTAssertTrue(
            out.standardOutput.hasSuffix(
                "repaired 0 findings in 0 files; 1 needs a person; after: 0 errors, 0 warnings\n"))
        XCTAssertEqual(try snapshot(directory), before)
    }

    /// A version file committed as a symbolic link is never written through.
    func testASymlinkedContentsFileIsRefused() throws {
        let directory = try copy("Respell")
        // Inside the bundle, so check reads it; fix still writes through no link.
        let real = directory.appendingPathComponent("Shop.xcdatamodeld/Shop 2.xcdatamodel/real-contents")
        let contents = directory.appendingPathComponent(shop2)
        try FileManager.default.moveItem(at: contents, to: real)
        try FileManager.default.createSymbolicLink(atPath: contents.path, withDestinationPath: "real-contents")
        let before = try bytes(real)
        let out = modellint(["fix"], in: directory)
        XCTAssertEqual(out.exitCode, 2)
        XCTAssertTrue(out.standardError.contains("is a symbolic link"), out.standardError)
        XCTAssertEqual(try bytes(real), before)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: contents.path), "real-contents")
    }

    /// `explain` says whether fix repairs a rule.
    func testExplainSaysWhetherFixRepairs() throws {
        let directory = try makeTemporaryDirectory(self)
        XCTAssertTrue(
            modellint(["explain", "renaming-identifier-xml-attribute"], in: directory).standardOutput.contains(
                "\n  modellint fix repairs it: it writes the hand-written renamingIdentifier as Xcode's elementID in a version that has not shipped and whose own step makes the rename, unless a shipped version carries the same attribute.\n"
            ))
        XCTAssertTrue(
            modellint(["explain", "entity-removed"], in: directory).standardOutput.contains(
                "\n  modellint fix does not repair it: the safe change needs a person's decision.\n"))
    }

    func testRespellingsSayOnlyWhatTheValueMeans() {
        func spelled(_ value: String, _ type: AttributeTypeName) -> String? {
            try? SuspiciousDefaultRepair.respelling(of: value, for: type.type).get()
        }
        XCTAssertEqual(spelled("0.0", .integer32), "0")
        XCTAssertEqual(spelled("-3.00", .integer16), "-3")
        XCTAssertNil(spelled("0.5", .integer16))
        XCTAssertNil(spelled("70000.0", .integer16))
        XCTAssertEqual(spelled("YES", .integer64), "1")
        XCTAssertEqual(spelled("NO", .float), "0")
        XCTAssertEqual(spelled("true", .boolean), "YES")
        XCTAssertEqual(spelled("No", .boolean), "NO")
        XCTAssertNil(spelled("2", .boolean))
    }
}

/// The attribute types the respelling test names (the model's `AttributeType` by its XML value).
enum AttributeTypeName: String {
    case integer16 = "Integer 16"
    case integer32 = "Integer 32"
    case integer64 = "Integer 64"
    case float = "Float"
    case boolean = "Boolean"
    var type: ModelLintModel.AttributeType { .init(xmlValue: rawValue) }
}

/// The line diff `fix --dry-run` prints, against hand-made expectations.
final class UnifiedDiffTests: XCTestCase {
    func testHunksContextAndEndOfFile() {
        let old = Array("a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n".utf8)
        let new = Array("a\nB\nc\nd\ne\nf\ng\nh\ni\nJ".utf8)
        XCTAssertEqual(
            UnifiedDiff.diff(old: old, new: new, path: "x"),
            """
            --- a/x
            +++ b/x
            @@ -1,5 +1,5 @@
             a
            -b
            +B
             c
             d
             e
            @@ -7,4 +7,4 @@
             g
             h
             i
            -j
            +J
            \\ No newline at end of file

            """)
        XCTAssertEqual(UnifiedDiff.diff(old: old, new: old, path: "x"), "")
        XCTAssertEqual(
            UnifiedDiff.diff(old: nil, new: Array("n\n".utf8), path: "x"),
            "--- /dev/null\n+++ b/x\n@@ -0,0 +1,1 @@\n+n\n")
        // A line end changed from CRLF to LF is a change.
        XCTAssertEqual(
            UnifiedDiff.diff(old: Array("a\r\n".utf8), new: Array("a\n".utf8), path: "x"),
            "--- a/x\n+++ b/x\n@@ -1,1 +1,1 @@\n-a\n+a\n")
    }

    func testStartTagsAreFoundByNameOnTheirLine() {
        let text = Array(
            "<a>\r\n  <attribute name=\"x\" d='1'/><attribute name=\"y\" defaultValueString=\"&quot;q&quot;\"/>\n".utf8)
        let tag = StartTag.find(in: text, element: "attribute", named: "y", line: 2, column: 3)
        XCTAssertEqual(tag?.field("defaultValueString")?.value, "\"q\"")
        XCTAssertEqual(tag.map { String(decoding: text[$0.range], as: UTF8.self) }?.hasSuffix("/>"), true)
        XCTAssertNil(StartTag.find(in: text, element: "attribute", named: "y", line: 1, column: 1))
        XCTAssertNil(StartTag.parse(Array("<attribute name=\"x".utf8), at: 0))
    }
}
